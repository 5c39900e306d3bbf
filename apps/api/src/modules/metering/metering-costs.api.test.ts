import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { clusterEvent, meteredOwner } from '../../../test/support/metering.js';
import { DEFAULT_RATES, clusterHourCents } from './rate-card.js';

const kinds = await databaseKinds();

describe.each(kinds)('cost screens, notices and the report on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Real hours: a billable hour lasts 60 minutes of the test clock.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());
  const ownerWithCluster = (email: string, options: { backup?: boolean } = {}) => meteredOwner(ctx, email, options);

  it('answers the cost calls with the same totals as the charges, as CSV too, and hides other accounts', async () => {
    ctx.clock.set('2026-03-10T09:00:00Z');
    const a = await ownerWithCluster('costs.a@example.com', { backup: true });
    const b = await ownerWithCluster('costs.b@example.com');
    ctx.clock.advance(5 * HOUR + 10 * MINUTE);
    await ctx.services.metering.run();
    const charged = await ctx.services.metering.chargedCents([a.subscriptionId]);
    a.tokens = await logIn(ctx, 'costs.a@example.com');
    b.tokens = await logIn(ctx, 'costs.b@example.com');
    expect(charged).toBeGreaterThan(0);

    const overview = await get(ctx, '/api/subscription/consumption/overview', a.tokens.jwt);
    expect(overview.statusCode).toBe(200);
    const row = overview.json().find((r: { subscription_id: string }) => r.subscription_id === a.subscriptionId);
    expect(Math.round(row.consumed_amount * 100)).toBe(charged);
    // Forecast: month-to-date + the hourly rate over the hours left (March 10 15:10 → April 1 00:00).
    const hoursLeft = (Date.parse('2026-04-01T00:00:00Z') - ctx.clock.now().getTime()) / HOUR;
    expect(Math.round(row.forecasted_amount * 100)).toBe(charged + Math.round(Math.round(row.hourly_rate * 100) * hoursLeft));
    expect(row.hourly_rate).toBe(clusterHourCents(DEFAULT_RATES, 'running', true) / 100);
    expect(row.runway_hours).toBeGreaterThan(0);
    // One forecast: the subscriptions list and details show the overview's.
    const listed = (await get(ctx, '/api/subscription/list', a.tokens.jwt)).json();
    expect(listed.find((s: { subscription_id: string }) => s.subscription_id === a.subscriptionId).forecasted_amount).toBe(
      row.forecasted_amount,
    );
    const details = await get(ctx, `/api/subscription/details?subscription_id=${a.subscriptionId}`, a.tokens.jwt);
    expect(details.json().forecasted_amount).toBe(row.forecasted_amount);

    const analysis = await get(
      ctx,
      `/api/subscription/consumption/credit-analysis/${a.subscriptionId}?startDate=2026-03-01T00:00:00`,
      a.tokens.jwt,
    );
    expect(analysis.statusCode).toBe(200);
    const body = analysis.json();
    expect(Math.round(body.total * 100)).toBe(charged);
    expect(body.daily).toHaveLength(10);
    expect(body.clusters[0].cluster_name).toBe('Alpha');
    expect(body.total_cluster_consumption[0].consumption).toBe(body.total);
    expect(body.last_12_months).toHaveLength(12);
    expect(body.last_12_months[11]).toEqual({ date: '2026-03-01', monthly_consumed_amount: body.total });
    // Six hours begun, five of them ended: the query engines are charged for an hour once it has ended.
    expect(body.consumption.at(-1).usage.QUERY_ENGINES).toBe(5 * 80);
    expect(body.consumption.at(-1).free_build_up_to).toBe(6);
    expect(body.total_service_consumption.DATA_PROCESS).toBe(0);
    expect(body.total_service_consumption.DATA_PROCESS_FREE).toBeGreaterThan(0);
    expect(body.total_service_consumption.BACKUP_STORAGE).toBeGreaterThan(0);

    const cluster = await get(ctx, `/api/cluster/consumption/credit-analysis/${a.clusterId}`, a.tokens.jwt);
    expect(cluster.json().total).toBe(body.total);
    const clusterOverview = await get(ctx, `/api/cluster/consumption/overview/${a.clusterId}?startDate=2026-03-01T00:00:00`, a.tokens.jwt);
    expect(clusterOverview.json().consumed_amount).toBe(body.total);
    // A month without use.
    const february = await get(ctx, `/api/cluster/consumption/overview/${a.clusterId}?startDate=2026-02-01T00:00:00`, a.tokens.jwt);
    expect(february.json()).toMatchObject({ consumed_amount: 0, forecasted_amount: 0 });

    const csv = await get(
      ctx,
      `/api/subscription/consumption/export/${a.subscriptionId}?startDate=2026-03-01T00:00:00&table=cost`,
      a.tokens.jwt,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('attachment');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('Date,Compute services (USD),Storage services (USD),Total cost (USD)');
    expect(lines.at(-1)).toBe(
      `Total,${(body.compute_total as number).toFixed(2)},${(body.storage_total as number).toFixed(2)},${(body.total as number).toFixed(2)}`,
    );
    const consumptionCsv = await get(ctx, `/api/cluster/consumption/export/${a.clusterId}?table=consumption`, a.tokens.jwt);
    expect(consumptionCsv.body.split('\r\n')[0]).toContain('Query Engine (core-hour)');

    const preview = await get(ctx, `/api/cluster/consumption/hourly-rate?subscriptionId=${a.subscriptionId}&dr=false`, a.tokens.jwt);
    expect(preview.json().hourly_rate).toBe(clusterHourCents(DEFAULT_RATES, 'running', false) / 100);
    expect(preview.json().covers_hours).toBe(
      Math.floor(Math.round(preview.json().balance * 100) / clusterHourCents(DEFAULT_RATES, 'running', false)),
    );

    // The transaction history and the audit log as CSV, with the same rows as the screens.
    const transactions = await get(ctx, `/api/credit/export/credit-transactions/${a.subscriptionId}`, a.tokens.jwt);
    expect(transactions.statusCode).toBe(200);
    const history = (await get(ctx, `/api/credit/view/credit-transactions/${a.subscriptionId}?page=0&size=20`, a.tokens.jwt)).json();
    const transactionLines = transactions.body.trim().split('\r\n');
    expect(transactionLines).toHaveLength(history.content.length + 1);
    // The debit's amount is a number a spreadsheet can add up, not text guarded against formulas.
    const amountAt = transactionLines[0]!.split(',').indexOf('Amount (USD)');
    const usageLine = transactionLines.slice(1).find((line) => line.includes(',USAGE,'));
    expect(usageLine?.split(',')[amountAt]).toBe(`-${(charged / 100).toFixed(2)}`);
    const audit = await get(ctx, `/api/cluster/export/audit-logs/${a.clusterId}?startDate=2026-03-01T00:00:00`, a.tokens.jwt);
    expect(audit.statusCode).toBe(200);
    expect(audit.body.split('\r\n')[0]).toBe('Date,Event,Description,Caused by');
    expect(audit.body).toContain('CLUSTER_DEPLOYED');

    // Tenant isolation: B sees neither A's subscription nor A's cluster.
    for (const url of [
      `/api/subscription/consumption/credit-analysis/${a.subscriptionId}`,
      `/api/subscription/consumption/export/${a.subscriptionId}`,
      `/api/cluster/consumption/credit-analysis/${a.clusterId}`,
      `/api/cluster/consumption/overview/${a.clusterId}`,
      `/api/cluster/consumption/export/${a.clusterId}`,
      `/api/cluster/consumption/hourly-rate?subscriptionId=${a.subscriptionId}`,
      `/api/credit/export/credit-transactions/${a.subscriptionId}`,
      `/api/cluster/export/audit-logs/${a.clusterId}`,
    ]) {
      expect((await get(ctx, url, b.tokens.jwt)).statusCode, url).toBe(404);
    }
    const bOverview = (await get(ctx, '/api/subscription/consumption/overview', b.tokens.jwt)).json();
    expect(bOverview.map((r: { subscription_id: string }) => r.subscription_id)).toEqual([b.subscriptionId]);
    expect(
      (await get(ctx, `/api/subscription/consumption/credit-analysis/${a.subscriptionId}?startDate=2026-13-01`, a.tokens.jwt)).statusCode,
    ).toBe(400);
  });

  it('mails the runway warnings and the credit expiry once each', async () => {
    ctx.clock.set('2026-03-20T00:00:00Z');
    const a = await ownerWithCluster('runway.a@example.com');
    // $500 at $6.55 an hour lasts about 76 hours: under 7 days at once.
    ctx.clock.advance(MINUTE);
    await ctx.services.metering.run();
    await ctx.services.metering.run();
    const mine = async () =>
      (await ctx.services.mail.listRecent(100)).filter((m) => m.toAddress === 'runway.a@example.com' && !/\b\d{6}\b/.test(m.textBody));
    expect((await mine()).filter((m) => /lasts about 3 days/.test(m.textBody))).toHaveLength(1);
    // 30-day credits: 3 days before expiry, one mail with the amount (the cluster is gone, so credits are left).
    await clusterEvent(ctx, a.clusterId, 'CLUSTER_DELETED', 'DELETED');
    ctx.clock.advance(27 * 24 * HOUR + HOUR);
    await ctx.services.metering.run();
    await ctx.services.metering.run();
    expect((await mine()).filter((m) => /of free credits on Costs expire/.test(m.textBody))).toHaveLength(1);
  });

  it('serves the printable report through a signed report session that logout ends', async () => {
    ctx.clock.set('2026-03-25T00:00:00Z');
    const a = await ownerWithCluster('report.a@example.com');
    ctx.clock.advance(3 * HOUR);
    await ctx.services.metering.run();
    a.tokens = await logIn(ctx, 'report.a@example.com');
    const issued = await get(ctx, '/api/user/report-url', a.tokens.jwt);
    expect(issued.statusCode).toBe(200);
    const url = new URL(issued.json().subscription_report_url);
    expect(issued.json().data.subscription_report_url).toBe(url.toString());
    const page = await ctx.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Costs');
    expect(page.body).toContain('Query Engine');
    expect(page.body).toContain('Transactions of the period');
    // A forged token, and the same address after logout, are refused.
    const forged = await ctx.app.inject({
      method: 'GET',
      url: `${url.pathname}?token=${encodeURIComponent(url.searchParams.get('token')!.slice(0, -2) + 'xx')}`,
    });
    expect(forged.statusCode).toBe(401);
    ctx.clock.advance(1000);
    expect((await get(ctx, '/api/user/report-logout', a.tokens.jwt)).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: url.pathname + url.search })).statusCode).toBe(401);
    // An address issued after the logout works again, until it expires.
    ctx.clock.advance(1000);
    const again = new URL((await get(ctx, '/api/user/report-url', a.tokens.jwt)).json().subscription_report_url);
    expect((await ctx.app.inject({ method: 'GET', url: again.pathname + again.search })).statusCode).toBe(200);
    ctx.clock.advance(31 * MINUTE);
    expect((await ctx.app.inject({ method: 'GET', url: again.pathname + again.search })).statusCode).toBe(401);
  });
});

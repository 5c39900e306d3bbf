import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetExceededMessage, centsToAmount } from '@kumo/contract';
import { HOUR } from '../../clock.js';
import { clusterBody } from '../../../test/support/clusters.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, logIn, post, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { meteredOwner, rows } from '../../../test/support/metering.js';

const kinds = await databaseKinds();

/** The hard cap holds a new cluster to the rule a start is held to, whoever asks (a person or an API token). */
describe.each(kinds)('the hard cap on creating clusters on %s', { timeout: 120_000 }, (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());

  const clustersOf = async (subscriptionId: string) =>
    (await rows<{ name: string }>(ctx, sql`select name from clusters where subscription_id = ${subscriptionId} order by name`)).map(
      (row) => row.name,
    );

  it('refuses a create with BUDGET_EXCEEDED, by session and by token, while the next hour would pass the budget', async () => {
    ctx.clock.set('2026-08-03T00:00:00Z');
    const email = `cap.${randomUUID().slice(0, 8)}@example.com`;
    const o = await meteredOwner(ctx, email);
    const token = (
      await post(ctx, '/api/user/api-tokens', { name: 'ci', scope: 'WRITE', expires_in_days: 7, allowed_ips: [] }, o.tokens.jwt)
    ).json<{ token: string }>().token;
    for (let hour = 0; hour < 3; hour++) {
      ctx.clock.advance(HOUR);
      await ctx.services.metering.run();
    }
    // A fresh session: the clock moved past the first one's 15 minutes.
    const { jwt } = await logIn(ctx, email);
    const spend = (await ctx.services.metering.monthSpend(o.customer.accountId, [o.subscriptionId])).get(o.subscriptionId)!;
    const committed = spend.consumedCents + 2 * spend.engineHourlyCents;
    expect(spend.engineHourlyCents).toBeGreaterThan(0);
    const create = (auth: string, name: string) =>
      post(ctx, '/api/cluster/create', clusterBody(o.subscriptionId, { cluster_name: name, cidr: '10.1.0.0/16' }), auth);

    // Room for the running cluster's next hour and its query engines' two hours not yet charged, not for a second
    // cluster beside it.
    const budget = await send(
      ctx,
      'PUT',
      `/api/subscription/${o.subscriptionId}/budget`,
      { monthly_amount: centsToAmount(committed + spend.hourlyCents), stop_clusters_at_limit: true },
      jwt,
    );
    expect(budget.statusCode, budget.body).toBe(200);
    expect(budget.json().start_headroom_per_hour).toBe(0);
    for (const [auth, name] of [
      [jwt, 'ByPerson'],
      [token, 'ByToken'],
    ] as const) {
      const refused = await create(auth, name);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(errorCode(refused)).toBe('BUDGET_EXCEEDED');
      expect(refused.json().errorDetails.error_message).toBe(budgetExceededMessage('Costs'));
    }
    expect(await clustersOf(o.subscriptionId)).toEqual(['Alpha']);

    // Raised with room for both clusters' next hours: the create goes through.
    const preview = (await get(ctx, `/api/cluster/consumption/hourly-rate?subscriptionId=${o.subscriptionId}&dr=false`, jwt)).json();
    const raised = await send(
      ctx,
      'PUT',
      `/api/subscription/${o.subscriptionId}/budget`,
      {
        monthly_amount: centsToAmount(committed + spend.hourlyCents + Math.round(preview.hourly_rate * 100)),
        stop_clusters_at_limit: true,
      },
      jwt,
    );
    expect(raised.json().start_headroom_per_hour).toBe(preview.hourly_rate);
    const created = await create(token, 'ByToken');
    expect(created.statusCode, created.body).toBe(200);
    expect(await clustersOf(o.subscriptionId)).toEqual(['Alpha', 'ByToken']);
  });

  it('refuses a create once the cap has stopped the clusters, and allows it once the budget is raised', async () => {
    ctx.clock.set('2026-09-03T00:00:00Z');
    const email = `cap.${randomUUID().slice(0, 8)}@example.com`;
    const o = await meteredOwner(ctx, email);
    ctx.clock.advance(2 * HOUR);
    await ctx.services.metering.run();
    const jwt = (await logIn(ctx, email)).jwt;
    // Lowered below the month's spend: the cap stops Alpha at once, and no new cluster may run this month.
    await send(ctx, 'PUT', `/api/subscription/${o.subscriptionId}/budget`, { monthly_amount: 1, stop_clusters_at_limit: true }, jwt);
    expect((await rows<{ status: string }>(ctx, sql`select status from clusters where id = ${o.clusterId}`))[0]!.status).toBe('STOPPING');
    const body = clusterBody(o.subscriptionId, { cluster_name: 'Later', cidr: '10.1.0.0/16' });
    expect(errorCode(await post(ctx, '/api/cluster/create', body, jwt))).toBe('BUDGET_EXCEEDED');

    await send(ctx, 'PUT', `/api/subscription/${o.subscriptionId}/budget`, { monthly_amount: 5000, stop_clusters_at_limit: true }, jwt);
    const created = await post(ctx, '/api/cluster/create', body, jwt);
    expect(created.statusCode, created.body).toBe(200);
  });

  it('asks a stopped cluster’s start, or an online one’s growth, for what it adds to the hour, not its whole hour again', async () => {
    ctx.clock.set('2026-10-03T00:00:00Z');
    const email = `cap.${randomUUID().slice(0, 8)}@example.com`;
    const o = await meteredOwner(ctx, email);
    ctx.clock.advance(2 * HOUR);
    await ctx.services.metering.run();
    const jwt = (await logIn(ctx, email)).jwt;
    const budgetOf = (cents: number) =>
      send(
        ctx,
        'PUT',
        `/api/subscription/${o.subscriptionId}/budget`,
        { monthly_amount: centsToAmount(cents), stop_clusters_at_limit: true },
        jwt,
      );
    const spendNow = async () => (await ctx.services.metering.monthSpend(o.customer.accountId, [o.subscriptionId])).get(o.subscriptionId)!;
    const hourOf = async (state: 'running' | 'stopped', cores?: number) =>
      (await ctx.services.metering.hourlyRatePreview(o.customer.accountId, o.subscriptionId, false, cores, state)).hourlyCents;

    // Stopped: its storage is in the subscription's hourly rate already; starting adds the rest of a running hour.
    await ctx.database.db.execute(sql`update clusters set status = 'OFFLINE' where id = ${o.clusterId}`);
    const stopped = await spendNow();
    const adds = (await hourOf('running')) - (await hourOf('stopped'));
    expect(stopped.hourlyCents).toBe(await hourOf('stopped'));
    const exact = stopped.consumedCents + 2 * stopped.engineHourlyCents + stopped.hourlyCents + adds;
    expect((await budgetOf(exact - 1)).statusCode).toBe(200);
    expect(errorCode(await get(ctx, `/api/cluster/start/${o.clusterId}`, jwt))).toBe('BUDGET_EXCEEDED');
    expect((await budgetOf(exact)).statusCode).toBe(200);
    const started = await get(ctx, `/api/cluster/start/${o.clusterId}`, jwt);
    expect(started.statusCode, started.body).toBe(200);

    // Online at M × 5 (80 cores): growing to L × 5 (160) adds the difference of the two shapes' hours.
    await ctx.database.db.execute(sql`update clusters set status = 'ONLINE' where id = ${o.clusterId}`);
    const online = await spendNow();
    const grows = (await hourOf('running', 160)) - (await hourOf('running', 80));
    const room = online.consumedCents + 2 * online.engineHourlyCents + online.hourlyCents + grows;
    const resize = () => post(ctx, `/api/cluster/resize/${o.clusterId}`, { size: 'L', query_engines: 5 }, jwt);
    expect((await budgetOf(room - 1)).statusCode).toBe(200);
    expect(errorCode(await resize())).toBe('BUDGET_EXCEEDED');
    expect((await budgetOf(room)).statusCode).toBe(200);
    const resized = await resize();
    expect(resized.statusCode, resized.body).toBe(200);
  });
});

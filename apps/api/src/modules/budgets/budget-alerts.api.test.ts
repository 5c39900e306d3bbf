import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetExceededMessage, centsToAmount } from '@kumo/contract';
import { HOUR } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, logIn, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { meteredOwner, rows } from '../../../test/support/metering.js';
import { newCustomer } from '../../../test/support/money.js';

const kinds = await databaseKinds();

/** Budget alerts and the hard cap, driven by the injected clock and metering runs. */
// Many metering runs a test: more time than the default when the machine is busy.
describe.each(kinds)('budget alerts on %s', { timeout: 120_000 }, (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Real hours: a billable hour lasts 60 minutes of the test clock.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());

  async function owner() {
    const email = `budget.${randomUUID().slice(0, 8)}@example.com`;
    return { email, ...(await meteredOwner(ctx, email)) };
  }
  type Owner = Awaited<ReturnType<typeof owner>>;
  /** A budget the running cluster uses up in about `hours` hours, in dollars. */
  async function budgetOfHours(o: Owner, hours: number): Promise<number> {
    const spend = await ctx.services.metering.monthSpend(o.customer.accountId, [o.subscriptionId]);
    return centsToAmount(spend.get(o.subscriptionId)!.hourlyCents * hours);
  }
  /** A fresh access token: the clock moves by hours between calls, past the token's 15 minutes. */
  const jwtOf = async (o: Owner) => (await logIn(ctx, o.email)).jwt;
  const budgetOf = async (o: Owner) => (await get(ctx, `/api/subscription/${o.subscriptionId}/budget`, await jwtOf(o))).json();
  const putBudget = async (o: Owner, body: Record<string, unknown>) =>
    send(ctx, 'PUT', `/api/subscription/${o.subscriptionId}/budget`, body, await jwtOf(o));
  const start = async (o: Owner) => get(ctx, `/api/cluster/start/${o.clusterId}`, await jwtOf(o));
  const budgetMails = (o: Owner) =>
    rows<{ subject: string; text_body: string }>(
      ctx,
      sql`select subject, text_body from mail_outbox where to_address = ${o.email} and subject like '%budget%' order by seq`,
    );
  /** What the account's people read in the bell about budgets: the owner's first. */
  const budgetNotices = (o: Owner) =>
    rows<{ recipient_user_id: string; kind: string; title: string }>(
      ctx,
      sql`select n.recipient_user_id, n.kind, n.title from notices n join account_members m on m.account_id = n.account_id and m.user_id = n.recipient_user_id
          where n.account_id = ${o.customer.accountId} and n.kind like 'BUDGET%' order by n.created_at, m.role <> 'ACCOUNT_OWNER', n.title`,
    );
  const statusOf = async (clusterId: string) =>
    (await rows<{ status: string }>(ctx, sql`select status from clusters where id = ${clusterId}`))[0]!.status;
  /** Runs metering every hour for `hours` hours, each time twice at once, as overlapping runs would. */
  async function runHours(hours: number) {
    for (let hour = 0; hour < hours; hour++) {
      ctx.clock.advance(HOUR);
      await Promise.all([ctx.services.metering.run(), ctx.services.metering.run()]);
    }
  }

  it('fires each threshold once per month, after the run that crosses it, however many runs follow', async () => {
    ctx.clock.set('2026-08-01T00:00:00Z');
    const o = await owner();
    expect((await putBudget(o, { monthly_amount: await budgetOfHours(o, 12) })).statusCode).toBe(200);
    // Hour by hour: an alert appears in the run whose charges cross its threshold, neither before nor after.
    let before = await ctx.services.budgets.get(o.customer.accountId, o.subscriptionId);
    for (let hour = 0; hour < 30; hour++) {
      await runHours(1);
      const after = await ctx.services.budgets.get(o.customer.accountId, o.subscriptionId);
      const share = (values: typeof after) => (values.spend.consumedCents * 100) / values.budget!.monthlyAmountCents;
      const fired = after.alerts.filter((alert) => !before.alerts.some((sent) => sent.threshold === alert.threshold));
      for (const alert of fired) {
        expect(share(before)).toBeLessThan(alert.threshold);
        expect(share(after)).toBeGreaterThanOrEqual(alert.threshold);
      }
      for (const threshold of [50, 75, 90, 100].filter((t) => share(after) >= t)) {
        expect(after.alerts.filter((alert) => alert.threshold === threshold)).toHaveLength(1);
      }
      before = after;
    }

    const budget = await budgetOf(o);
    expect(budget.month_to_date).toBeGreaterThan(budget.monthly_amount);
    expect(budget.alerts.map((a: { threshold: number; kind: string }) => [a.threshold, a.kind])).toEqual([
      [50, 'ACTUAL'],
      [75, 'ACTUAL'],
      [90, 'ACTUAL'],
      [100, 'ACTUAL'],
    ]);
    const mails = await budgetMails(o);
    expect(mails.map((m) => m.subject)).toEqual([
      'Kumo Analytics Cloud: Costs: 50% of the monthly budget reached',
      'Kumo Analytics Cloud: Costs: 75% of the monthly budget reached',
      'Kumo Analytics Cloud: Costs: 90% of the monthly budget reached',
      'Kumo Analytics Cloud: Costs: 100% of the monthly budget reached',
    ]);
    // The bell holds each once too, however many runs (two at a time) followed.
    expect((await budgetNotices(o)).map((n) => n.title)).toEqual([
      'Costs: 50% of the monthly budget reached',
      'Costs: 75% of the monthly budget reached',
      'Costs: 90% of the monthly budget reached',
      'Costs: 100% of the monthly budget reached',
    ]);
    // Without the hard cap, nothing is stopped.
    expect(await statusOf(o.clusterId)).toBe('ONLINE');

    // The next month starts afresh: the alerts of August are not this month's.
    ctx.clock.set('2026-09-01T00:30:00Z');
    await ctx.services.metering.run();
    expect((await budgetOf(o)).alerts).toEqual([]);
  });

  it('alerts on the forecast, once per threshold, when asked to', async () => {
    // On the month's last day, the forecast is about 24 hours of the cluster's rate.
    ctx.clock.set('2026-09-30T00:00:00Z');
    const o = await owner();
    await putBudget(o, { monthly_amount: await budgetOfHours(o, 60), thresholds: [25, 50, 90], alert_on_forecast: true });
    await runHours(3);
    const budget = await budgetOf(o);
    expect(budget.forecast).toBeGreaterThan(budget.monthly_amount * 0.25);
    expect(budget.forecast).toBeLessThan(budget.monthly_amount * 0.5);
    expect(budget.alerts.map((a: { threshold: number; kind: string }) => [a.threshold, a.kind])).toEqual([[25, 'FORECAST']]);
    const forecastMails = ["Kumo Analytics Cloud: Costs: the month's forecast reaches 25% of the budget"];
    expect((await budgetMails(o)).map((m) => m.subject)).toEqual(forecastMails);

    // Later runs of the day keep the forecast in the same band: nothing more is sent.
    await runHours(10);
    expect((await budgetOf(o)).alerts).toHaveLength(1);
    expect((await budgetMails(o)).map((m) => m.subject)).toEqual(forecastMails);
    expect((await budgetNotices(o)).map((n) => n.kind)).toEqual(['BUDGET_ALERT']);
  });

  it('fires what a lowered budget crosses at once, in one mail naming the highest, and re-arms what a raised one no longer crosses', async () => {
    ctx.clock.set('2026-10-01T00:00:00Z');
    const o = await owner();
    await runHours(10);
    const spent = (await budgetOf(o)).month_to_date;
    expect(await budgetMails(o)).toEqual([]);

    // An account admin is mailed beside the owner; a cluster member is not.
    const addPerson = async (role: 'ACCOUNT_ADMIN' | 'CLUSTER_MEMBER') => {
      const person = await newCustomer(ctx, 'Pat Person');
      await ctx.services.accounts.addMember(o.customer.accountId, person.userId, role, ctx.clock.now());
      const [who] = await rows<{ email: string }>(ctx, sql`select email from users where id = ${person.userId}`);
      return { email: who!.email, userId: person.userId };
    };
    const { email: adminEmail, userId: adminId } = await addPerson('ACCOUNT_ADMIN');
    const { email: memberEmail, userId: memberId } = await addPerson('CLUSTER_MEMBER');

    // Lowered to about 120 % of the spend: 50, 75, 90 and 100 are crossed, one mail names 100.
    const lowered = await putBudget(o, { monthly_amount: Math.floor(spent * 0.8 * 100) / 100 });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(lowered.json().alerts.map((a: { threshold: number }) => a.threshold)).toEqual([50, 75, 90, 100]);
    expect((await budgetMails(o)).map((m) => m.subject)).toEqual(['Kumo Analytics Cloud: Costs: 100% of the monthly budget reached']);
    expect((await budgetMails({ ...o, email: adminEmail })).map((m) => m.subject)).toEqual([
      'Kumo Analytics Cloud: Costs: 100% of the monthly budget reached',
    ]);
    expect(await budgetMails({ ...o, email: memberEmail })).toEqual([]);
    // The same alert is in the owner's and the admin's bell, once each, and not in the member's.
    const bell = await budgetNotices(o);
    expect(bell.map((n) => [n.recipient_user_id, n.kind, n.title])).toEqual([
      [o.customer.userId, 'BUDGET_ALERT', 'Costs: 100% of the monthly budget reached'],
      [adminId, 'BUDGET_ALERT', 'Costs: 100% of the monthly budget reached'],
    ]);
    expect(bell.some((n) => n.recipient_user_id === memberId)).toBe(false);

    // Raised so the spend is about 60 %: 75, 90 and 100 are armed again, 50 stays sent.
    const raised = await putBudget(o, { monthly_amount: Math.ceil((spent / 0.6) * 100) / 100 });
    expect(raised.json().alerts.map((a: { threshold: number }) => a.threshold)).toEqual([50]);
    await runHours(12);
    expect((await budgetOf(o)).alerts.map((a: { threshold: number }) => a.threshold)).toEqual([50, 75, 90, 100]);
    const subjects = (await budgetMails(o)).map((m) => m.subject);
    expect(subjects[0]).toBe('Kumo Analytics Cloud: Costs: 100% of the monthly budget reached');
    expect(subjects.slice(1).every((s) => !s.includes('50%'))).toBe(true);
    expect(subjects.at(-1)).toBe('Kumo Analytics Cloud: Costs: 100% of the monthly budget reached');
  });

  it('with the hard cap: says when at 90 %, stops the clusters before the next hour passes the budget, refuses a start until the month ends', async () => {
    ctx.clock.set('2026-11-01T00:00:00Z');
    const o = await owner();
    await runHours(30);
    // A budget with room for exactly one more hour at the current rate, beside the query engines' two hours run and not
    // yet charged: 50, 75 and 90 fire at once, in one mail naming 90.
    const spend = (await ctx.services.metering.monthSpend(o.customer.accountId, [o.subscriptionId])).get(o.subscriptionId)!;
    const amountCents = spend.consumedCents + 2 * spend.engineHourlyCents + spend.hourlyCents;
    expect(spend.consumedCents * 100).toBeGreaterThanOrEqual(90 * amountCents);
    await putBudget(o, { monthly_amount: centsToAmount(amountCents), stop_clusters_at_limit: true });
    const mails = await budgetMails(o);
    expect(mails.map((m) => m.subject)).toEqual(['Kumo Analytics Cloud: Costs: 90% of the monthly budget reached']);
    // The real share, and the stop's date as the product writes dates ('MMM D, YYYY h:mm A'), never a raw UTC string.
    const percent = Math.floor((spend.consumedCents * 100) / amountCents);
    expect(mails[0]!.text_body).toContain(
      `Costs has spent $${(spend.consumedCents / 100).toFixed(2)} this month: ${percent}% of its monthly budget`,
    );
    expect(mails[0]!.text_body).toContain(
      `At the current rate of $${(spend.hourlyCents / 100).toFixed(2)} per hour, the running clusters of Costs will be stopped in about 1 hour (around Nov 2, 2026 7:00 AM UTC)`,
    );
    expect(mails[0]!.text_body).not.toMatch(/GMT/);
    expect(await statusOf(o.clusterId)).toBe('ONLINE');

    // The next hour is charged, and another would pass the budget: the run stops the cluster before it does.
    await runHours(1);
    expect(await statusOf(o.clusterId)).toBe('STOPPING');
    const atStop = await budgetOf(o);
    expect(atStop.month_to_date).toBeLessThanOrEqual(atStop.monthly_amount);
    const stop = (await budgetMails(o)).filter((m) => m.subject.includes('were stopped'));
    const stoppedAt = Math.floor((Math.round(atStop.month_to_date * 100) * 100) / amountCents);
    expect(stoppedAt).toBeLessThanOrEqual(100);
    expect(stop.map((m) => m.subject)).toEqual([
      `Kumo Analytics Cloud: Clusters of Costs were stopped at ${stoppedAt}% of the monthly budget`,
    ]);
    expect((await budgetNotices(o)).filter((n) => n.kind === 'BUDGET_STOP').map((n) => n.title)).toEqual([
      `Clusters of Costs were stopped at ${stoppedAt}% of the monthly budget`,
    ]);
    expect(stop[0]!.text_body).toContain(
      `Costs has spent $${atStop.month_to_date.toFixed(2)} this month, ${stoppedAt}% of its monthly budget`,
    );
    expect(stop[0]!.text_body).toContain('These clusters were stopped (not deleted; their data is kept): Alpha.');
    const [audit] = await rows<{ description: string }>(
      ctx,
      sql`select description from cluster_audit_logs where cluster_id = ${o.clusterId} order by seq desc limit 1`,
    );
    expect(audit!.description).toBe(`Alpha is being stopped: ${budgetExceededMessage('Costs')}`);

    // The cloud reports it stopped; a start is refused for the rest of November.
    await ctx.database.db.execute(sql`update clusters set status = 'OFFLINE' where id = ${o.clusterId}`);
    await runHours(2);
    expect((await budgetMails(o)).filter((m) => m.subject.includes('were stopped'))).toHaveLength(1);
    const refused = await start(o);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(errorCode(refused)).toBe('BUDGET_EXCEEDED');
    expect(refused.json().errorDetails.error_message).toBe(budgetExceededMessage('Costs'));
    expect(refused.json().errorDetails.error_message).toBe(
      'The monthly budget of Costs is used up. Raise the budget to start clusters this month.',
    );
    expect(await statusOf(o.clusterId)).toBe('OFFLINE');

    ctx.clock.set('2026-12-01T00:10:00Z');
    const started = await start(o);
    expect(started.statusCode, started.body).toBe(200);
    expect(await statusOf(o.clusterId)).toBe('STARTING');
  });

  it('with the hard cap: a budget lowered below the spend stops the clusters at once, and raising it allows a start', async () => {
    ctx.clock.set('2027-01-01T00:00:00Z');
    const o = await owner();
    await runHours(6);
    const spent = (await budgetOf(o)).month_to_date;
    const lowered = await putBudget(o, { monthly_amount: Math.max(1, Math.floor(spent * 50) / 100), stop_clusters_at_limit: true });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(await statusOf(o.clusterId)).toBe('STOPPING');
    await ctx.database.db.execute(sql`update clusters set status = 'OFFLINE' where id = ${o.clusterId}`);
    expect(errorCode(await start(o))).toBe('BUDGET_EXCEEDED');

    // The schedule is held to the same rule: it does not start the cluster, and says why in the cluster's log.
    const schedule = await send(
      ctx,
      'PUT',
      `/api/cluster/schedule/${o.clusterId}`,
      { enabled: true, rules: [{ day: 'FRI', action: 'START', time: '23:00' }] },
      await jwtOf(o),
      { usertimezone: 'UTC' },
    );
    expect(schedule.statusCode, schedule.body).toBe(200);
    ctx.clock.set('2027-01-01T23:01:00Z');
    expect(await ctx.services.clusters.runSchedules()).toBe(0);
    expect(await statusOf(o.clusterId)).toBe('OFFLINE');
    const [audit] = await rows<{ event: string; description: string; seq: string }>(
      ctx,
      sql`select event, description, seq from cluster_audit_logs where cluster_id = ${o.clusterId} order by seq desc limit 1`,
    );
    expect(audit!.description).toBe(`The schedule did not start Alpha: ${budgetExceededMessage('Costs')}`);
    // A refused start is not a start: metering's usage view must not count the cluster as running from it.
    expect(audit!.event).toBe('CLUSTER_START_REFUSED');
    expect(
      await rows(ctx, sql`select 1 from cluster_usage_changes where cluster_id = ${o.clusterId} and seq >= ${audit!.seq}`),
    ).toHaveLength(0);

    await putBudget(o, { monthly_amount: Math.ceil(spent * 2 * 100) / 100, stop_clusters_at_limit: true });
    const started = await start(o);
    expect(started.statusCode, started.body).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { amountToCents, type Cluster, type CreditAnalysis, type Subscription, type TimelineResponse } from '@kumo/contract';
import { SANDBOX_EVENTS_QUEUE } from '../adapters/payments/index.js';
import { loadConfig } from '../config.js';
import { DAY } from '../clock.js';
import { databaseKinds } from '../../test/support/databases.js';
import { get, logIn, startTestApp, type TestContext } from '../../test/support/harness.js';
import { rows } from '../../test/support/metering.js';
import { DEMO_ADMIN, DEMO_CLUSTERS, DEMO_CUSTOMER, DEMO_INVITEE, DEMO_SUBSCRIPTIONS, seedDemoData, seedDemoWhenAsked } from './seed.js';

const kinds = await databaseKinds();

/** How many rows each table of the public schema holds. */
async function rowCounts(ctx: TestContext): Promise<Record<string, number>> {
  const tables = await rows<{ name: string }>(
    ctx,
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await rows<{ n: string }>(ctx, sql`select count(*)::text as n from ${sql.identifier(name)}`);
    counts[name] = Number(row!.n);
  }
  return counts;
}

/** The first day of the UTC month `back` months before `at`, as the cost screens' startDate. */
const monthStart = (at: Date, back: number) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - back, 1)).toISOString().slice(0, 19);

describe.each(kinds)('the demo account on %s', (kind) => {
  let ctx: TestContext;
  let jwt: string;
  let afterFirstRun: Record<string, number>;
  let afterSecondRun: Record<string, number>;
  let subscriptions: Subscription[];

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    // The embedded default names every development tool, demo among them.
    expect(await seedDemoWhenAsked(loadConfig({}), ctx.infra)).toBe(true);
    afterFirstRun = await rowCounts(ctx);
    // A portal restarted on its data seeds again, later.
    ctx.clock.advance(DAY);
    await seedDemoData(ctx.infra);
    afterSecondRun = await rowCounts(ctx);
    jwt = (await logIn(ctx, DEMO_CUSTOMER.email)).jwt;
    subscriptions = (await get(ctx, '/api/subscription/list', jwt)).json();
  }, 120_000);
  afterAll(() => ctx.close());

  it('adds nothing the second time', () => {
    expect(afterFirstRun.metering_charges).toBeGreaterThan(10_000);
    expect(afterSecondRun).toEqual(afterFirstRun);
  });

  it('holds two subscriptions paid by card, each balance the sum of its ledger entries', async () => {
    expect(subscriptions.map((s) => s.subscription_name).sort()).toEqual(
      [DEMO_SUBSCRIPTIONS.dataScience.name, DEMO_SUBSCRIPTIONS.production.name].sort(),
    );
    for (const subscription of subscriptions) {
      const [ledger] = await rows<{ sum: string; purchases: string }>(
        ctx,
        sql`select sum(amount_cents)::text as sum, count(*) filter (where kind = 'PURCHASE')::text as purchases
            from ledger_entries where subscription_id = ${subscription.subscription_id}`,
      );
      expect(amountToCents(subscription.total_amount)).toBe(Number(ledger!.sum));
      expect(amountToCents(subscription.total_amount)).toBeGreaterThan(100_000);
      expect(Number(ledger!.purchases)).toBeGreaterThanOrEqual(2);
      const [purchases] = await rows<{ paid: string; keyed: string }>(
        ctx,
        sql`select count(*)::text as paid, count(e.id)::text as keyed from purchases p
            left join ledger_entries e on e.id = p.ledger_entry_id and e.idempotency_key = 'checkout:' || p.checkout_session_id
            where p.subscription_id = ${subscription.subscription_id} and p.status = 'SUCCESSFUL'`,
      );
      expect(purchases!.keyed).toBe(purchases!.paid);
    }
    // Confirmed by the history itself: no sandbox notice is left for the portal's provider to read.
    expect(ctx.jobs.sent.filter((job) => job.queue === SANDBOX_EVENTS_QUEUE)).toEqual([]);
  });

  it('charged three months of hourly usage through the ledger, and each month’s cost analysis equals its charges', async () => {
    for (const subscription of subscriptions) {
      const id = subscription.subscription_id;
      const [totals] = await rows<{ usage: string; charges: string; hours: string }>(
        ctx,
        sql`select (select -sum(amount_cents) from ledger_entries where subscription_id = ${id} and kind = 'USAGE')::text as usage,
                   (select sum(amount_cents) from metering_charges where subscription_id = ${id})::text as charges,
                   (select count(distinct hour_start) from metering_charges where subscription_id = ${id})::text as hours`,
      );
      expect(Number(totals!.usage)).toBe(Number(totals!.charges));
      for (const back of [0, 1, 2]) {
        const startDate = monthStart(ctx.clock.now(), back);
        const analysis: CreditAnalysis = (
          await get(ctx, `/api/subscription/consumption/credit-analysis/${id}?startDate=${startDate}`, jwt)
        ).json();
        const [charged] = await rows<{ sum: string | null }>(
          ctx,
          sql`select sum(amount_cents)::text as sum from metering_charges
              where subscription_id = ${id} and hour_start >= ${new Date(`${startDate}Z`)}
                and hour_start < ${new Date(`${startDate}Z`)}::timestamptz + interval '1 month'`,
        );
        expect(amountToCents(analysis.total)).toBe(Number(charged!.sum ?? 0));
        if (back > 0) expect(amountToCents(analysis.total)).toBeGreaterThan(0);
      }
    }
    const production = subscriptions.find((s) => s.subscription_name === DEMO_SUBSCRIPTIONS.production.name)!;
    const [hours] = await rows<{ n: string }>(
      ctx,
      sql`select count(distinct hour_start)::text as n from metering_charges where subscription_id = ${production.subscription_id}`,
    );
    // The running cluster exists the whole three months, hour after hour.
    expect(Number(hours!.n)).toBeGreaterThan(88 * 24);
  });

  it('runs one cluster in the simulated cloud and has stopped the other', async () => {
    const groups: { clusters: Cluster[] }[] = (await get(ctx, '/api/cluster/view', jwt)).json();
    const clusters = groups.flatMap((group) => group.clusters);
    const running = clusters.find((c) => c.cluster_name === DEMO_CLUSTERS.running.name)!;
    const stopped = clusters.find((c) => c.cluster_name === DEMO_CLUSTERS.stopped.name)!;
    expect([running.status, stopped.status]).toEqual(['ONLINE', 'OFFLINE']);
    expect(running.kumo_manager_url).toContain('/sim/kumo/');
    const stack = await ctx.services.simulatedCloud!.stackInfo(running.stack_name);
    expect(stack?.description.powerState).toBe('RUNNING');
    // Its page's timeline: each day with its charge (but today's, a day after the seed, which metering has not run for
    // in the test), and the restart of three days ago.
    const timeline: TimelineResponse = (await get(ctx, `/api/cluster/timeline/${running.deployment_id}`, jwt)).json();
    expect(timeline.days.length).toBeGreaterThanOrEqual(13);
    expect(timeline.days.every((day) => day.entries[0]?.kind === 'CHARGE')).toBe(true);
    const events = timeline.days.flatMap((day) => day.entries.flatMap((entry) => (entry.kind === 'EVENT' ? [entry.event] : [])));
    expect(events).toEqual(expect.arrayContaining(['CLUSTER_STOPPED', 'CLUSTER_STARTED']));
  });

  it('has an account admin, a pending invitation and staff in this month’s Staff access trail', async () => {
    const users: { email_id: string; role: string }[] = (await get(ctx, '/api/account/users', jwt)).json();
    expect(users.map((u) => [u.email_id, u.role]).sort()).toEqual(
      [
        [DEMO_CUSTOMER.email, 'ACCOUNT_OWNER'],
        [DEMO_ADMIN.email, 'ACCOUNT_ADMIN'],
      ].sort(),
    );
    const invitations: { email_id: string; expired: boolean }[] = (await get(ctx, '/api/account/invitations', jwt)).json();
    expect(invitations).toEqual([expect.objectContaining({ email_id: DEMO_INVITEE.email, expired: false })]);
    const trail = (await get(ctx, '/api/account/audit-logs?page=0&size=20', jwt)).json();
    const events = trail.page_content.content.map((entry: { event: string }) => entry.event);
    expect(events).toEqual(expect.arrayContaining(['USER_SWITCH_STARTED', 'USER_SWITCH_ENDED', 'MANAGER_OPENED']));
  });
});

describe.each(kinds)('demo data switched off on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  it('is not seeded when DEV_TOOLS leaves demo out', async () => {
    expect(await seedDemoWhenAsked(loadConfig({ DEV_TOOLS: 'mailbox,identity,sandbox' }), ctx.infra)).toBe(false);
    const [people] = await rows<{ n: string }>(ctx, sql`select count(*)::text as n from users`);
    expect(people!.n).toBe('0');
  });
});

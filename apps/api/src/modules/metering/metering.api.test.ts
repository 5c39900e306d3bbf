import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription } from '../../../test/support/money.js';
import { balanceCents, clusterEvent, meteredOwner, newMeteredCluster, rows } from '../../../test/support/metering.js';
import { DEFAULT_RATES, HOURLY_QUANTITY, clusterHourCents, round6 } from './rate-card.js';

/** The default card with only the query engines priced: their part of an hour. */
const engineRates = DEFAULT_RATES.map((rate) => (rate.dimension === 'QUERY_ENGINES' ? rate : { ...rate, rateE4: 0 }));

const kinds = await databaseKinds();

describe.each(kinds)('metering on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Real hours: a billable hour lasts 60 minutes of the test clock.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());
  const ownerWithCluster = (email: string, options: { backup?: boolean } = {}) => meteredOwner(ctx, email, options);

  it('charges each billable hour once, storage while stopped, nothing after deletion', async () => {
    const customer = await newCustomer(ctx);
    const sub = await newSubscription(ctx, customer, 'Meter One');
    const before = await balanceCents(ctx, sub);
    const cluster = await newMeteredCluster(ctx, customer, sub);
    await clusterEvent(ctx, cluster, 'CLUSTER_CREATE_REQUESTED');
    ctx.clock.advance(10 * MINUTE);
    await clusterEvent(ctx, cluster, 'CLUSTER_RESOURCES_CREATED');
    ctx.clock.advance(40 * MINUTE);
    await clusterEvent(ctx, cluster, 'CLUSTER_DEPLOYED', 'ONLINE');
    // Hours 0 and 1 (the second begun at 60 min) run, the nodes from their creation at 10 min. The query engines of
    // hour 0 (50 minutes) are charged once it has ended and settled (65 min); those of hour 1 are not yet.
    ctx.clock.advance(20 * MINUTE);
    await ctx.services.metering.run();
    await ctx.services.metering.run();
    const running = clusterHourCents(DEFAULT_RATES, 'running', false);
    const engineHour = clusterHourCents(engineRates, 'running', false);
    const engineMinutes = (minutes: number) =>
      clusterHourCents(engineRates, 'running', false, round6((HOURLY_QUANTITY.QUERY_ENGINES * minutes) / 60));
    const charges = await rows<{ dimension: string; n: number }>(
      ctx,
      sql`select dimension, count(*)::int as n from metering_charges where cluster_id = ${cluster} group by 1 order by 1`,
    );
    expect(Object.fromEntries(charges.map((c) => [c.dimension, c.n]))).toEqual({
      BI_SERVER: 2,
      DATA_PROCESS: 2,
      LOCAL_STORAGE: 2,
      PERIPHERAL_SERVICES: 2,
      PERSISTENT_STORAGE: 2,
      QUERY_ENGINES: 1,
    });
    // Build and cache storage hours are within the free units: charged at zero. The cloud holds no stack for this
    // cluster, so it counts no storage requests either.
    const spent = before - (await balanceCents(ctx, sub));
    const free = clusterHourCents(
      DEFAULT_RATES.filter((r) => !['DATA_PROCESS', 'LOCAL_STORAGE', 'PERSISTENT_STORAGE_REQUESTS'].includes(r.dimension)),
      'running',
      false,
    );
    expect(running).toBeGreaterThan(free);
    expect([engineMinutes(50), engineMinutes(10)]).toEqual([400, 80]);
    expect(spent).toBe(2 * (free - engineHour) + engineMinutes(50));

    // Stopped at 70 min, within hour 1 (already charged but for its engines, which ran 10 minutes in it): hours 2 and
    // 3 are storage only.
    await clusterEvent(ctx, cluster, 'CLUSTER_STOPPED', 'OFFLINE');
    ctx.clock.advance(2 * HOUR + 30 * MINUTE);
    await ctx.services.metering.run();
    const perDimension = await rows<{ dimension: string; n: number }>(
      ctx,
      sql`select dimension, count(*)::int as n from metering_charges where cluster_id = ${cluster} group by 1 order by 1`,
    );
    expect(Object.fromEntries(perDimension.map((c) => [c.dimension, c.n]))).toMatchObject({
      BI_SERVER: 2,
      LOCAL_STORAGE: 4,
      PERSISTENT_STORAGE: 4,
      QUERY_ENGINES: 2,
    });
    const engines = await rows<{ quantity: string; cents: string }>(
      ctx,
      sql`select quantity::text, amount_cents::text as cents from metering_charges
          where cluster_id = ${cluster} and dimension = 'QUERY_ENGINES' order by hour_start`,
    );
    expect(engines).toEqual([
      { quantity: '66.666667', cents: '400' },
      { quantity: '13.333333', cents: '80' },
    ]);

    await clusterEvent(ctx, cluster, 'CLUSTER_DELETED', 'DELETED');
    ctx.clock.advance(5 * HOUR);
    await ctx.services.metering.run();
    const [after] = await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from metering_charges where cluster_id = ${cluster} and dimension = 'PERSISTENT_STORAGE'`,
    );
    // Deleted at 220 min, within hour 3: nothing more.
    expect(after!.n).toBe(4);

    // Rollups equal the charges, which equal the balance change.
    const [sums] = await rows<{ charges: string; rollups: string }>(
      ctx,
      sql`select (select coalesce(sum(amount_cents),0) from metering_charges where subscription_id = ${sub})::text as charges,
                 (select coalesce(sum(amount_cents),0) from metering_daily_rollups where subscription_id = ${sub})::text as rollups`,
    );
    expect(Number(sums!.charges)).toBe(Number(sums!.rollups));
    expect(before - (await balanceCents(ctx, sub))).toBe(Number(sums!.charges));
  });

  it('a rate change applies from its date and never re-prices charged hours', async () => {
    ctx.clock.set('2026-03-12T00:00:00Z');
    const a = await ownerWithCluster('rates.a@example.com');
    // The query engines' hour 0 has ended and settled; hour 1 ended a minute ago and waits.
    ctx.clock.advance(2 * HOUR + MINUTE);
    await ctx.services.metering.run();
    const before = await rows<{ rate: string }>(
      ctx,
      sql`select distinct rate_e4::text as rate from metering_charges where cluster_id = ${a.clusterId} and dimension = 'QUERY_ENGINES'`,
    );
    expect(before.map((r) => Number(r.rate))).toEqual([600]);
    await ctx.services.metering.setRates(
      a.customer.accountId,
      [{ dimension: 'QUERY_ENGINES', rateE4: 900, freeUnits: 0 }],
      ctx.clock.now(),
      null,
    );
    await expect(
      ctx.services.metering.setRates(
        a.customer.accountId,
        [{ dimension: 'QUERY_ENGINES', rateE4: 1, freeUnits: 0 }],
        new Date(ctx.clock.now().getTime() - HOUR),
        null,
      ),
    ).rejects.toThrow();
    // Hours 0 to 2 began before the new rate, hour 3 (ended and settled at 4 h 5 min) after it.
    ctx.clock.advance(2 * HOUR + 5 * MINUTE);
    await ctx.services.metering.run();
    const after = await rows<{ rate: string; n: number }>(
      ctx,
      sql`select rate_e4::text as rate, count(*)::int as n from metering_charges where cluster_id = ${a.clusterId} and dimension = 'QUERY_ENGINES' group by 1 order by 1`,
    );
    expect(after.map((r) => [Number(r.rate), r.n])).toEqual([
      [600, 3],
      [900, 1],
    ]);
    a.tokens = await logIn(ctx, 'rates.a@example.com');
    expect(
      (await get(ctx, `/api/subscription/consumption/rates/${a.subscriptionId}`, a.tokens.jwt)).json().service_rate.QUERY_ENGINES,
    ).toBe(0.09);
  });

  it('below minus the overdue limit stops running clusters (never deletes), says why, mails the owner, restarts nothing', async () => {
    ctx.clock.set('2026-03-15T00:00:00Z');
    const a = await ownerWithCluster('overdue.a@example.com');
    // $500 of sign-up credits at about $6.55 an hour: gone within 80 hours.
    ctx.clock.advance(90 * HOUR);
    await ctx.services.metering.run();
    expect(await balanceCents(ctx, a.subscriptionId)).toBeLessThan(0);
    a.tokens = await logIn(ctx, 'overdue.a@example.com');
    const [cluster] = await rows<{ status: string; deleted_at: string | null }>(
      ctx,
      sql`select status, deleted_at from clusters where id = ${a.clusterId}`,
    );
    expect(cluster).toEqual({ status: 'STOPPING', deleted_at: null });
    const logs = (
      await get(ctx, `/api/cluster/get-audit-logs/${a.clusterId}?page=0&size=20&startDate=2026-03-01T00:00:00`, a.tokens.jwt)
    ).json();
    expect(logs.page_content.content[0].description).toMatch(/below the overdue limit/);
    const mails = await ctx.services.mail.listRecent(50);
    expect(mails.filter((m) => m.toAddress === 'overdue.a@example.com' && /stopped/.test(m.textBody))).toHaveLength(1);
    // A second run stops nothing more and sends nothing more; the cluster, once stopped, stays so.
    await clusterEvent(ctx, a.clusterId, 'CLUSTER_STOPPED', 'OFFLINE');
    ctx.clock.advance(HOUR);
    await ctx.services.metering.run();
    await ctx.services.ledger.addAdminFunds({
      subscriptionId: a.subscriptionId,
      amountCents: 500_000,
      idempotencyKey: 'overdue-refill',
      category: 'REFUND_MAINTENANCE_COST',
    });
    ctx.clock.advance(HOUR);
    await ctx.services.metering.run();
    const [later] = await rows<{ status: string }>(ctx, sql`select status from clusters where id = ${a.clusterId}`);
    expect(later!.status).toBe('OFFLINE');
    expect(
      (await ctx.services.mail.listRecent(50)).filter((m) => m.toAddress === 'overdue.a@example.com' && /stopped/.test(m.textBody)),
    ).toHaveLength(1);
  });
});

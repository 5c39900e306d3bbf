import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METERING_DIMENSIONS, type MeteringDimension } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription } from '../../../test/support/money.js';
import { balanceCents, clusterEvent, newMeteredCluster, rows } from '../../../test/support/metering.js';
import { AUTO_TOP_UP_CHARGE_QUEUE } from '../auto-top-up/index.js';
import { drainJobs } from '../../../test/support/money.js';
import {
  alertLedger,
  capReached,
  computeAfterCapStops,
  expectedRefusal,
  startRefused,
  stopsAsked,
  type CapStop,
  type ModelBudget,
} from '../../../test/support/spend-model.js';
import { CAP_REACHED_AND_TOPPED_UP, FREE_UNITS_GRANTED_IN_THE_RUN, stepArb } from '../../../test/support/money-steps.js';
import { DEFAULT_RATES, DIMENSION_KIND, FREE_UNIT_SIZE, HOURLY_QUANTITY, round6 } from './rate-card.js';
import { toClusterCostWire, toCreditAnalysisWire } from './presentation.js';
import { LATE_WRITE_MARGIN_MS } from './charging-sql.js';

/**
 * Random cluster lifecycles and rate changes over simulated hours, with metering runs at random moments (some
 * replayed), then: every billable hour charged exactly once and at the rate in effect when it began (the query engines'
 * once it has ended, for the time they ran in it); the sum of
 * charges = each rollup (daily, monthly, per subscription) = the cost API = the balance change; free units used before anything is paid; free
 * credits spent before paid funds; replaying a run changes nothing. Budgets (some with the hard cap) and automatic
 * top-ups join the sequences: the cap stops the clusters once the next hour would pass it and refuses a start whose
 * hour would (BUDGET_EXCEEDED), no cluster is charged compute after the hour the cap stopped it in, each alert is sent once per
 * month and kind, no top-up is charged twice, and the balance stays the ledger's sum.
 */

const SCALE = 60; // the harness's simulated cloud: a billable hour lasts one real minute
const HOUR_MS = 3_600_000 / SCALE;
/** The query engines' hour is charged this long after it ended: the late-write margin, or the hour when shorter. */
const ENGINE_SETTLE_MS = Math.min(LATE_WRITE_MARGIN_MS, HOUR_MS);

interface Amounts {
  amount_cents: string;
  quantity: string;
  free_quantity: string;
}
type Charge = Amounts & { cluster_id: string; dimension: MeteringDimension; at: string; rate_e4: string };

/** Cents, quantity and free quantity in millionths (exact integers: quantities have 6 decimals). */
const micros = (r: Amounts) => [Number(r.amount_cents), Math.round(Number(r.quantity) * 1e6), Math.round(Number(r.free_quantity) * 1e6)];
function sumsBy(charges: Charge[], keyOf: (c: Charge) => string): Map<string, number[]> {
  const sums = new Map<string, number[]>();
  for (const c of charges) {
    const sum = sums.get(keyOf(c)) ?? [0, 0, 0];
    sums.set(
      keyOf(c),
      micros(c).map((v, i) => sum[i]! + v),
    );
  }
  return sums;
}

/** A cluster as the model follows it: its origin and its running and stopped stretches. */
interface ModelCluster {
  id: string;
  origin: number;
  segments: { from: number; to: number | null; state: 'running' | 'stopped' }[];
}

/**
 * The billable hours the lifecycle alone calls for by `end`, as `cluster|dimension|hour` keys, and the query engines'
 * quantity of each of their hours.
 */
function expectedHours(clusters: ModelCluster[], end: number, backup: boolean) {
  // The expected billable hours, worked out here from the lifecycle alone. The query engines' hours are those that
  // ended and settled by the last run, each for the milliseconds they ran in it (core-hours of the default shape).
  const expected = new Set<string>();
  const engineQuantity = new Map<string, number>();
  for (const c of clusters) {
    for (const s of c.segments) {
      const to = s.to ?? end;
      if (to <= s.from) continue;
      for (let n = Math.floor((s.from - c.origin) / HOUR_MS); n * HOUR_MS + c.origin < to; n++) {
        const hourStart = c.origin + n * HOUR_MS;
        if (s.state === 'running' && hourStart + HOUR_MS + ENGINE_SETTLE_MS <= end) {
          const key = `${c.id}|QUERY_ENGINES|${hourStart}`;
          const ran = Math.min(to, hourStart + HOUR_MS) - Math.max(s.from, hourStart);
          engineQuantity.set(key, (engineQuantity.get(key) ?? 0) + (ran * HOURLY_QUANTITY.QUERY_ENGINES) / HOUR_MS);
          expected.add(key);
        }
        for (const d of METERING_DIMENSIONS) {
          const k = DIMENSION_KIND[d];
          if (d === 'QUERY_ENGINES') continue;
          if (k === 'compute' && s.state !== 'running') continue;
          if (k === 'backup' && !backup) continue;
          // Storage requests are charged as the cloud counts them; it holds no stack for these clusters.
          if (k === 'requests') continue;
          expected.add(`${c.id}|${d}|${c.origin + n * HOUR_MS}`);
        }
      }
    }
  }
  return { expected, engineQuantity };
}

const kinds = await databaseKinds();

describe.each(kinds)('metering properties on %s', (kind) => {
  let ctx: TestContext;
  /** The automatic top-up charges the runs queued, each carried out twice, as a retried job would. */
  async function chargeTopUps() {
    await drainJobs(ctx, AUTO_TOP_UP_CHARGE_QUEUE, async (data) => {
      await ctx.services.autoTopUp.charge(String(data.key));
      await ctx.services.autoTopUp.charge(String(data.key));
    });
  }
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: SCALE } });
  });
  afterAll(() => ctx.close());

  it('charges every billable hour exactly once and keeps charges, rollups, the API and the balance equal', async () => {
    expect(ctx.services.metering.hourMs).toBe(HOUR_MS);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 40 }), fc.boolean(), async (steps, backup) => {
        run++;
        const customer = await newCustomer(ctx);
        const sub = await newSubscription(ctx, customer, `Prop ${run}`);
        // Paid funds next to the sign-up credits, to see the order of spending.
        await ctx.services.ledger.addAdminFunds({
          subscriptionId: sub,
          amountCents: 100_000,
          idempotencyKey: `prop-${run}-funds`,
          category: 'REFUND_MAINTENANCE_COST',
        });
        const startBalance = await balanceCents(ctx, sub);
        const clusters: {
          id: string;
          state: 'none' | 'running' | 'stopped' | 'gone';
          origin: number;
          segments: { from: number; to: number | null; state: 'running' | 'stopped' }[];
        }[] = [];
        // A month's top-ups stay within the cap in force when each was claimed: at most the highest one set.
        let highestCap = 0;
        const rateHistory: { at: number; dimension: MeteringDimension; rateE4: number; freeUnits: number }[] = [];
        let budget: ModelBudget | undefined;
        const alerts = alertLedger(ctx, sub);
        const capStops: CapStop[] = [];

        const closeSegment = (c: (typeof clusters)[number], at: number) => {
          const open = c.segments.at(-1);
          if (open && open.to === null) open.to = at;
        };
        // Clusters the portal stopped (hard cap, overdue guard) stop in the cloud at once; a cap stops them only once reached.
        const followStops = async () => {
          const now = ctx.clock.now().getTime();
          const asked = await stopsAsked(ctx, sub);
          // Judged as the portal judged it, with every cluster it stopped still running: each one the model stops
          // below takes its hour and its engines' hours behind out of the figures.
          const reached = asked.some((stop) => stop.byBudget) && (await capReached(ctx, customer.accountId, sub, budget));
          for (const stop of asked) {
            const c = clusters.find((cluster) => cluster.id === stop.id)!;
            if (stop.byBudget) {
              expect(reached).toBe(true);
              capStops.push({ cluster: c, at: now });
            }
            await clusterEvent(ctx, c.id, 'CLUSTER_STOPPED', 'OFFLINE');
            closeSegment(c, now);
            c.segments.push({ from: now, to: null, state: 'stopped' });
            c.state = 'stopped';
          }
          if (await capReached(ctx, customer.accountId, sub, budget)) expect(clusters.filter((c) => c.state === 'running')).toEqual([]);
        };
        for (const step of steps) {
          const now = ctx.clock.now().getTime();
          switch (step.op) {
            case 'advance':
              ctx.clock.advance(step.seconds * 1000);
              break;
            case 'create': {
              if (clusters.length >= 3) break;
              const id = await newMeteredCluster(ctx, customer, sub, { backup });
              await clusterEvent(ctx, id, 'CLUSTER_RESOURCES_CREATED', 'ONLINE');
              clusters.push({ id, state: 'running', origin: now, segments: [{ from: now, to: null, state: 'running' }] });
              break;
            }
            case 'start':
            case 'stop':
            case 'delete': {
              const c = clusters[step.cluster];
              if (!c || c.state === 'gone') break;
              if (step.op === 'start' && c.state === 'stopped') {
                // The start gate the clusters ask: refused exactly while the cluster's next hour would pass the cap.
                const refusal = await startRefused(ctx, customer.accountId, sub, backup);
                expect(refusal).toBe((await expectedRefusal(ctx, customer.accountId, sub, budget, backup)) ? 'BUDGET_EXCEEDED' : undefined);
                if (refusal) break;
                await clusterEvent(ctx, c.id, 'CLUSTER_STARTED', 'ONLINE');
                closeSegment(c, now);
                c.segments.push({ from: now, to: null, state: 'running' });
                c.state = 'running';
              } else if (step.op === 'stop' && c.state === 'running') {
                await clusterEvent(ctx, c.id, 'CLUSTER_STOPPED', 'OFFLINE');
                closeSegment(c, now);
                c.segments.push({ from: now, to: null, state: 'stopped' });
                c.state = 'stopped';
              } else if (step.op === 'delete') {
                await clusterEvent(ctx, c.id, 'CLUSTER_DELETED', 'DELETED');
                closeSegment(c, now);
                c.state = 'gone';
              }
              break;
            }
            case 'meter':
              await ctx.services.metering.run();
              await followStops();
              await chargeTopUps();
              break;
            case 'replay': {
              // Two overlapping runs at one instant, then the same instant again: nothing is charged twice.
              await Promise.all([ctx.services.metering.run(), ctx.services.metering.run()]);
              const again = await ctx.services.metering.run();
              expect(again.hours).toBe(0);
              await followStops();
              await chargeTopUps();
              break;
            }
            case 'budget':
              await ctx.services.budgets.put(customer.accountId, sub, {
                monthly_amount: step.dollars * 100,
                thresholds: [50, 90, 100],
                alert_on_forecast: step.forecast,
                stop_clusters_at_limit: step.cap,
              });
              budget = { cents: step.dollars * 100, cap: step.cap };
              // Saving checks at once: a capped budget below the month's spend stops the clusters now.
              await followStops();
              break;
            case 'topUp': {
              // A saved sandbox card that succeeds, as the setup page stores it.
              const cap = Math.max(step.capCents, step.topUpCents);
              highestCap = Math.max(highestCap, cap);
              await ctx.database.db.execute(sql`
                insert into auto_top_ups (subscription_id, account_id, enabled, threshold_cents, top_up_cents, monthly_cap_cents, status,
                                          customer_id, payment_method_id, card_brand, card_last4, card_exp_month, card_exp_year, updated_at)
                values (${sub}, ${customer.accountId}, true, ${step.thresholdCents}, ${step.topUpCents}, ${cap}, 'ACTIVE', 'cus_sandbox_prop',
                        'pm_sandbox_4242424242424242_prop', 'visa', '4242', 12, 2034, ${ctx.clock.now()})
                on conflict (subscription_id) do update set threshold_cents = excluded.threshold_cents,
                  top_up_cents = excluded.top_up_cents, monthly_cap_cents = excluded.monthly_cap_cents`);
              break;
            }
            case 'rate':
              await ctx.services.metering.setRates(
                customer.accountId,
                [{ dimension: step.dimension, rateE4: step.rateE4, freeUnits: step.freeUnits }],
                ctx.clock.now(),
                null,
              );
              rateHistory.push({ at: now, dimension: step.dimension, rateE4: step.rateE4, freeUnits: step.freeUnits });
              break;
          }
          await alerts.observe(step.op === 'budget');
        }
        const end = ctx.clock.now().getTime();
        await ctx.services.metering.run();
        await followStops();
        await chargeTopUps();
        await alerts.observe(false);
        await alerts.expectMailedOnce(customer.userId);
        expect((await ctx.services.metering.run()).hours).toBe(0);
        // Metering covers every account: end this run's clusters now, or each later run would meter them again over its whole span.
        for (const c of clusters) if (c.state !== 'gone') await clusterEvent(ctx, c.id, 'CLUSTER_DELETED', 'DELETED');

        const { expected, engineQuantity } = expectedHours(clusters, end, backup);
        const charges = await rows<Charge>(
          ctx,
          sql`select cluster_id, dimension, (extract(epoch from hour_start) * 1000)::bigint::text as at, quantity::text, free_quantity::text, rate_e4::text, amount_cents::text
              from metering_charges where subscription_id = ${sub} order by hour_start, cluster_id, dimension`,
        );
        const charged = charges.map((c) => `${c.cluster_id}|${c.dimension}|${c.at}`);
        expect(new Set(charged).size).toBe(charged.length);
        expect(new Set(charged)).toEqual(expected);
        // No compute charged for a cluster the cap stopped after the hour it stopped in, until it started again.
        expect(computeAfterCapStops(capStops, charges, HOUR_MS)).toEqual([]);

        // Each at the rate in effect when its hour began, priced as quantity less free units.
        const freeUsed = new Map<string, number>();
        for (const c of charges) {
          const at = Number(c.at);
          const rate =
            [...rateHistory].reverse().find((r) => r.dimension === c.dimension && r.at <= at) ??
            DEFAULT_RATES.find((r) => r.dimension === c.dimension)!;
          expect(Number(c.rate_e4)).toBe(rate.rateE4);
          const quantity = engineQuantity.get(`${c.cluster_id}|${c.dimension}|${c.at}`) ?? HOURLY_QUANTITY[c.dimension];
          expect(Number(c.quantity)).toBeCloseTo(round6(quantity), 6);
          expect(Number(c.amount_cents)).toBe(
            Math.round(((Number(c.quantity) - Number(c.free_quantity)) * Number(c.rate_e4)) / 100 + 1e-9),
          );
          // Free units first: no paid hour of a dimension-month before its free units ran out.
          const month = new Date(at).toISOString().slice(0, 7);
          const key = `${c.dimension}|${month}`;
          const used = freeUsed.get(key) ?? 0;
          const budget = rate.freeUnits * FREE_UNIT_SIZE[c.dimension];
          if (Number(c.free_quantity) < Number(c.quantity) - 1e-6)
            expect(used + Number(c.free_quantity)).toBeGreaterThanOrEqual(budget - 1e-5);
          expect(used + Number(c.free_quantity)).toBeLessThanOrEqual(Math.max(budget, used) + 1e-5);
          freeUsed.set(key, used + Number(c.free_quantity));
        }

        const total = charges.reduce((s, c) => s + Number(c.amount_cents), 0);
        const [rollup] = await rows<{ cents: string }>(
          ctx,
          sql`select coalesce(sum(amount_cents), 0)::text as cents from metering_daily_rollups where subscription_id = ${sub}`,
        );
        expect(Number(rollup!.cents)).toBe(total);
        // Every rollup row holds its charges' sums: per cluster and day, per cluster and month, per subscription and day.
        const month = (at: string) => new Date(Number(at)).toISOString().slice(0, 7);
        const day = (at: string) => new Date(Number(at)).toISOString().slice(0, 10);
        for (const [table, keyOf] of [
          [
            sql`select cluster_id || '|' || dimension || '|' || day as key, amount_cents::text, quantity::text, free_quantity::text from metering_daily_rollups`,
            (c: Charge) => `${c.cluster_id}|${c.dimension}|${day(c.at)}`,
          ],
          [
            sql`select cluster_id || '|' || dimension || '|' || to_char(month, 'YYYY-MM') as key, amount_cents::text, quantity::text, free_quantity::text from metering_monthly_rollups`,
            (c: Charge) => `${c.cluster_id}|${c.dimension}|${month(c.at)}`,
          ],
          [
            sql`select dimension || '|' || day as key, amount_cents::text, quantity::text, free_quantity::text from metering_subscription_daily_rollups`,
            (c: Charge) => `${c.dimension}|${day(c.at)}`,
          ],
        ] as const) {
          const stored = await rows<{ key: string } & Amounts>(ctx, sql`${table} where subscription_id = ${sub}`);
          expect(new Map(stored.map((r) => [r.key, micros(r)]))).toEqual(sumsBy(charges, keyOf));
        }
        // Automatic top-ups: each hour's charge credited once, each month within its cap, each a purchase with a receipt.
        const topUps = await rows<{ key: string; month: string; amount_cents: string; entries: string; purchases: string }>(
          ctx,
          sql`select c.idempotency_key as key, c.month, c.amount_cents::text,
                     (select count(*) from ledger_entries e where e.idempotency_key = c.idempotency_key)::text as entries,
                     (select count(*) from purchases p where p.ledger_entry_id in
                        (select e.id from ledger_entries e where e.idempotency_key = c.idempotency_key))::text as purchases
                from auto_top_up_charges c where c.subscription_id = ${sub} and c.status = 'SUCCEEDED'`,
        );
        for (const topUp of topUps) expect([topUp.entries, topUp.purchases]).toEqual(['1', '1']);
        const byMonth = new Map<string, number>();
        for (const t of topUps) byMonth.set(t.month, (byMonth.get(t.month) ?? 0) + Number(t.amount_cents));
        for (const cents of byMonth.values()) expect(cents).toBeLessThanOrEqual(highestCap);
        expect(await rows(ctx, sql`select 1 from auto_top_up_charges where subscription_id = ${sub} and status = 'PENDING'`)).toEqual([]);
        const toppedUp = topUps.reduce((sum, t) => sum + Number(t.amount_cents), 0);
        expect(startBalance - (await balanceCents(ctx, sub))).toBe(total - toppedUp);
        // The balance is the ledger's sum.
        const [ledgerSum] = await rows<{ cents: string }>(
          ctx,
          sql`select coalesce(sum(amount_cents), 0)::text as cents from ledger_entries where subscription_id = ${sub}`,
        );
        expect(Number(ledgerSum!.cents)).toBe(await balanceCents(ctx, sub));
        // The cost API of the month (everything here falls in the harness's March) says the same.
        const analysis = toCreditAnalysisWire(
          await ctx.services.metering.subscriptionAnalysis(customer.accountId, sub, '2026-03-01T00:00:00'),
        );
        expect(Math.round(analysis.total * 100)).toBe(total);
        expect(Math.round(analysis.daily.reduce((s, d) => s + d.daily_total * 100, 0))).toBe(total);
        expect(Math.round(analysis.last_12_months.at(-1)!.monthly_consumed_amount * 100)).toBe(total);
        expect(Math.round(analysis.clusters.reduce((s, c) => s + c.total * 100, 0))).toBe(total);
        let clustersTotal = 0;
        for (const c of clusters) {
          const ofCluster = toCreditAnalysisWire(
            await ctx.services.metering.clusterAnalysis(customer.accountId, c.id, '2026-03-01T00:00:00'),
          );
          const cents = Math.round(ofCluster.total * 100);
          expect(Math.round(ofCluster.last_12_months.at(-1)!.monthly_consumed_amount * 100)).toBe(cents);
          expect(
            Math.round(
              toClusterCostWire(await ctx.services.metering.clusterOverview(customer.accountId, c.id, '2026-03-01T00:00:00'))
                .consumed_amount * 100,
            ),
          ).toBe(cents);
          clustersTotal += cents;
        }
        expect(clustersTotal).toBe(total);
        // Free credits before paid funds: paid funds are untouched while any credit is left.
        const [details] = await ctx.services.subscriptions.list(customer.accountId);
        const credits = details!.freeCreditsCents;
        if (credits > 0) expect(details!.balanceCents - credits).toBe(100_000 + toppedUp);
      }),
      { numRuns: 12, examples: [FREE_UNITS_GRANTED_IN_THE_RUN, CAP_REACHED_AND_TOPPED_UP] },
    );
    // The sequences did reach automatic top-ups and hard caps, so the checks above had something to check.
    expect(await rows(ctx, sql`select 1 from auto_top_up_charges where status = 'SUCCEEDED' limit 1`)).toHaveLength(1);
    expect(await rows(ctx, sql`select 1 from cluster_audit_logs where description like '%monthly budget%' limit 1`)).toHaveLength(1);
  }, 600_000);
});

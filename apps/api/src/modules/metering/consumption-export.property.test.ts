import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSUMPTION_GRANULARITIES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription } from '../../../test/support/money.js';
import { clusterEvent, newMeteredCluster, rows } from '../../../test/support/metering.js';
import type { UsageExportRow } from './consumption-export.js';

/**
 * Random usage (clusters started, stopped and deleted, metering runs at random moments, free credits granted and
 * running out), then any range at any granularity: the export's amounts add up to the usage of the hours that began
 * in the range to the cent, and its rows to those of the whole history in the range's periods; over the whole history
 * its amounts are the ledger's usage debits, and its free-credit rows what the debits drew from free credits.
 */

const SCALE = 60; // the harness's simulated cloud: a billable hour lasts one real minute
const DAY_MS = 86_400_000;

type Step =
  | { op: 'advance'; minutes: number }
  | { op: 'toggle' | 'create' | 'delete'; cluster: number }
  | { op: 'meter' }
  | { op: 'grant'; cents: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('advance' as const), minutes: fc.integer({ min: 1, max: 600 }) }), weight: 5 },
  {
    arbitrary: fc.record({
      op: fc.constantFrom('toggle' as const, 'create' as const, 'delete' as const),
      cluster: fc.integer({ min: 0, max: 2 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ op: 'meter' as const }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('grant' as const), cents: fc.integer({ min: 1, max: 20_000 }) }), weight: 1 },
);

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function collect(periods: AsyncIterable<UsageExportRow[]>): Promise<UsageExportRow[]> {
  const all: UsageExportRow[] = [];
  for await (const period of periods) all.push(...period);
  return all;
}

const kinds = await databaseKinds();

describe.each(kinds)('consumption export properties on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: SCALE } });
  });
  afterAll(() => ctx.close());

  it('adds up to the usage of the hours of any range, and splits the debits as the ledger did', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 5, maxLength: 30 }),
        fc.array(fc.tuple(fc.integer({ min: -1, max: 6 }), fc.integer({ min: 0, max: 6 }), fc.constantFrom(...CONSUMPTION_GRANULARITIES)), {
          minLength: 1,
          maxLength: 4,
        }),
        async (steps, ranges) => {
          run++;
          ctx.clock.set(new Date(Date.UTC(2026, 4, 30, 20, run)));
          const start = ctx.clock.now().getTime();
          const customer = await newCustomer(ctx);
          const sub = await newSubscription(ctx, customer, `Export ${run}`);
          // Staff funds keep clusters running once credits are gone; sign-up credits are spent first.
          await ctx.services.ledger.addAdminFunds({
            subscriptionId: sub,
            amountCents: 5_000_000,
            idempotencyKey: `export-${run}-funds`,
            category: 'REFUND_MAINTENANCE_COST',
          });
          const clusters: { id: string; state: 'running' | 'stopped' | 'gone' }[] = [];
          let grants = 0;
          for (const step of steps) {
            if (step.op === 'advance') ctx.clock.advance(step.minutes * 60_000);
            else if (step.op === 'meter') await ctx.services.metering.run({ accountId: customer.accountId });
            else if (step.op === 'grant') {
              await ctx.services.ledger.grantFreeCredits({
                subscriptionId: sub,
                amountCents: step.cents,
                idempotencyKey: `export-${run}-grant-${++grants}`,
                validDays: 1,
              });
            } else if (step.op === 'create' && clusters.length < 3) {
              const id = await newMeteredCluster(ctx, customer, sub, { backup: clusters.length === 1 });
              await clusterEvent(ctx, id, 'CLUSTER_RESOURCES_CREATED', 'ONLINE');
              clusters.push({ id, state: 'running' });
            } else {
              const c = clusters[step.cluster];
              if (!c || c.state === 'gone') continue;
              if (step.op === 'delete') {
                await clusterEvent(ctx, c.id, 'CLUSTER_DELETED', 'DELETED');
                c.state = 'gone';
              } else if (c.state === 'running') {
                await clusterEvent(ctx, c.id, 'CLUSTER_STOPPED', 'OFFLINE');
                c.state = 'stopped';
              } else {
                await clusterEvent(ctx, c.id, 'CLUSTER_STARTED', 'ONLINE');
                c.state = 'running';
              }
            }
          }
          await ctx.services.metering.run({ accountId: customer.accountId });

          const sum = (list: UsageExportRow[]) => list.reduce((total, row) => total + row.amountCents, 0);
          const free = (list: UsageExportRow[]) => sum(list.filter((row) => row.paidFrom === 'FREE_CREDITS'));
          // The whole history, hour by hour: what the debits were, split as the ledger split them.
          const everything = { from: new Date(start - 2 * DAY_MS), to: new Date(ctx.clock.now().getTime() + DAY_MS) };
          const history = await collect(await ctx.services.metering.consumptionExport(customer.accountId, sub, everything, 'HOUR'));
          const [ledger] = await rows<{ debited: string; free: string }>(
            ctx,
            sql`select coalesce(-sum(e.amount_cents), 0)::text as debited,
                       coalesce(sum((select sum(a.amount_cents) from credit_allocations a where a.entry_id = e.id)), 0)::text as free
                from ledger_entries e where e.subscription_id = ${sub} and e.kind = 'USAGE'`,
          );
          expect(sum(history)).toBe(Number(ledger!.debited));
          expect(free(history)).toBe(Number(ledger!.free));

          for (const [fromOffset, length, granularity] of ranges) {
            const from = new Date(Date.parse(`${day(start)}T00:00:00Z`) + fromOffset * DAY_MS);
            const to = new Date(from.getTime() + (length + 1) * DAY_MS);
            const exported = await collect(
              await ctx.services.metering.consumptionExport(customer.accountId, sub, { from, to }, granularity),
            );
            const [used] = await rows<{ cents: string }>(
              ctx,
              sql`select coalesce(sum(amount_cents), 0)::text as cents from metering_charges
                  where subscription_id = ${sub} and hour_start >= ${from} and hour_start < ${to}`,
            );
            expect(sum(exported)).toBe(Number(used!.cents));
            // A range's rows are the history's of its hours, paid from the same money.
            const inRange = history.filter((row) => row.periodStart >= from && row.periodStart < to);
            expect(sum(exported)).toBe(sum(inRange));
            expect(free(exported)).toBe(free(inRange));
            for (const row of exported) {
              expect(row.periodStart.getTime()).toBeGreaterThanOrEqual(from.getTime() - (granularity === 'MONTH' ? 31 * DAY_MS : 0));
              expect(row.periodStart.getTime()).toBeLessThan(to.getTime());
              expect(row.amountCents).toBeGreaterThanOrEqual(0);
              expect(row.freeMicros).toBeLessThanOrEqual(row.quantityMicros);
            }
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});

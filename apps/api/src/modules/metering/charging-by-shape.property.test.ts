import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_SIZE_NAMES, queryEngineCores } from '@kumo/contract';
import { HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription } from '../../../test/support/money.js';
import { balanceCents, newMeteredCluster, rows } from '../../../test/support/metering.js';
import { DEFAULT_RATES, round6 } from './rate-card.js';

/**
 * Charging by the shape that ran (docs/metering.md, Charged by the shape that ran; decision 0041): random resizes, stops
 * and starts over several hours, charged by metering runs at random moments (some replayed at once). Each hour the
 * query engines ran in is charged once, after it ended, for the core-minutes of every shape that ran in it, at the rate;
 * the balance moves by exactly the charges.
 */
const kinds = await databaseKinds();
const QUERY_ENGINE_RATE_E4 = DEFAULT_RATES.find((rate) => rate.dimension === 'QUERY_ENGINES')!.rateE4;

type Step = { wait: number; action: 'resize'; cores: number } | { wait: number; action: 'stop' | 'start' | 'run' | 'replay' };

const shapes = CLUSTER_SIZE_NAMES.flatMap((size) => [1, 2, 3, 4, 5].map((engines) => queryEngineCores(size, engines)));
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ wait: fc.integer({ min: 1, max: 50 }), action: fc.constant('resize' as const), cores: fc.constantFrom(...shapes) }),
  fc.record({
    wait: fc.integer({ min: 1, max: 50 }),
    action: fc.constantFrom('stop' as const, 'start' as const, 'run' as const, 'replay' as const),
  }),
);

describe.each(kinds)('charging by the shape that ran on %s', { timeout: 300_000 }, (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Real hours: a billable hour lasts 60 minutes of the test clock.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());

  /** An audit entry as the clusters module writes it, stamped with the query engines' cores from then on. */
  const event = (clusterId: string, name: string, cores: number) =>
    rows(
      ctx,
      sql`insert into cluster_audit_logs (cluster_id, event, description, actor_label, created_at, query_engine_cores)
          values (${clusterId}, ${name}, ${name}, 'System', ${ctx.clock.now()}, ${cores})`,
    );

  it('charges each hour once for the core-minutes of the shapes that ran in it, and the balance moves by exactly the charges', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...shapes), fc.array(stepArb, { minLength: 4, maxLength: 14 }), async (firstCores, steps) => {
        const customer = await newCustomer(ctx);
        const subscription = await newSubscription(ctx, customer);
        const startBalance = await balanceCents(ctx, subscription);
        const clusterId = await newMeteredCluster(ctx, customer, subscription, { status: 'ONLINE' });
        const origin = ctx.clock.now().getTime();
        let cores = firstCores;
        let running = true;
        await event(clusterId, 'CLUSTER_DEPLOYED', cores);
        // The model: for each hour, the cores that ran in each of its minutes, summed (core-minutes).
        const coreMinutes = new Map<number, number>();
        for (const step of steps) {
          for (let waited = 0; waited < step.wait; waited += 1) {
            const hour = Math.floor((ctx.clock.now().getTime() - origin) / HOUR);
            if (running) coreMinutes.set(hour, (coreMinutes.get(hour) ?? 0) + cores);
            ctx.clock.advance(MINUTE);
          }
          if (step.action === 'resize') {
            cores = step.cores;
            // An online cluster's new shape runs from now; an offline one's from its next start.
            if (running) await event(clusterId, 'CLUSTER_RESIZED', cores);
          } else if (step.action === 'stop' && running) {
            running = false;
            await event(clusterId, 'CLUSTER_STOPPED', cores);
          } else if (step.action === 'start' && !running) {
            running = true;
            await event(clusterId, 'CLUSTER_STARTED', cores);
          } else if (step.action === 'run' || step.action === 'replay') {
            await ctx.services.metering.run();
            if (step.action === 'replay') await ctx.services.metering.run();
          }
        }
        // Stopped, and once its last hour has ended and settled, every hour it ran in is charged.
        if (running) await event(clusterId, 'CLUSTER_STOPPED', cores);
        ctx.clock.advance(2 * HOUR);
        await ctx.services.metering.run();
        const expected = new Map([...coreMinutes].map(([hour, sum]) => [hour, round6(sum / 60)]));

        const charged = await rows<{ hour: string; quantity: string; cents: string }>(
          ctx,
          sql`select extract(epoch from hour_start)::text as hour, quantity::text, amount_cents::text as cents
              from metering_charges where cluster_id = ${clusterId} and dimension = 'QUERY_ENGINES' order by hour_start`,
        );
        const byHour = new Map(charged.map((c) => [Math.round((Number(c.hour) * 1000 - origin) / HOUR), Number(c.quantity)]));
        expect(byHour).toEqual(expected);
        for (const c of charged) expect(Number(c.cents)).toBe(Math.round((Number(c.quantity) * QUERY_ENGINE_RATE_E4) / 100));

        const [total] = await rows<{ cents: string }>(
          ctx,
          sql`select coalesce(sum(amount_cents), 0)::text as cents from metering_charges where subscription_id = ${subscription}`,
        );
        expect(startBalance - (await balanceCents(ctx, subscription))).toBe(Number(total!.cents));
      }),
      { numRuns: 8 },
    );
  });
});

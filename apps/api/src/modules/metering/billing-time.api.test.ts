import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { meteredOwner } from '../../../test/support/metering.js';
import { DEFAULT_RATES, clusterHourCents } from './rate-card.js';

const kinds = await databaseKinds();

/** Money is told in billing time: the demo's faster simulated cloud changes no figure. */
describe.each(kinds)('money figures in billing time on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // The demo's speed: a billable hour passes in one real minute.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 60 } });
  });
  afterAll(() => ctx.close());

  it('gives the rate per billable hour, the hours the balance covers and the month forecast, whatever the cloud speed', async () => {
    const owner = await meteredOwner(ctx, `billing-time.${Date.now()}@example.com`);
    await ctx.services.metering.run();
    const hourCents = clusterHourCents(DEFAULT_RATES, 'running', false);
    expect(hourCents).toBeGreaterThan(600);
    expect(hourCents).toBeLessThan(700);

    const preview = (
      await get(ctx, `/api/cluster/consumption/hourly-rate?subscriptionId=${owner.subscriptionId}`, owner.tokens.jwt)
    ).json();
    expect(preview.hourly_rate).toBe(hourCents / 100);
    expect(preview.covers_hours).toBe(Math.floor((preview.balance * 100) / hourCents));
    expect(preview.time_scale).toBe(60);
    expect(preview.stopped_hourly_rate).toBe(clusterHourCents(DEFAULT_RATES, 'stopped', false) / 100);

    // A shape of its own (the start dialog asks for the cluster's): S × 2 runs 16 query-engine cores, not 80.
    const small = (
      await get(
        ctx,
        `/api/cluster/consumption/hourly-rate?subscriptionId=${owner.subscriptionId}&dr=true&size=S&query_engines=2`,
        owner.tokens.jwt,
      )
    ).json();
    expect(small.hourly_rate).toBe(clusterHourCents(DEFAULT_RATES, 'running', true, 16) / 100);
    expect(small.stopped_hourly_rate).toBe(clusterHourCents(DEFAULT_RATES, 'stopped', true, 16) / 100);
    const refused = await get(
      ctx,
      `/api/cluster/consumption/hourly-rate?subscriptionId=${owner.subscriptionId}&size=XXL`,
      owner.tokens.jwt,
    );
    expect(refused.statusCode).toBe(400);

    const overview = (await get(ctx, '/api/subscription/consumption/overview', owner.tokens.jwt)).json();
    const row = overview.find((r: { subscription_id: string }) => r.subscription_id === owner.subscriptionId);
    expect(row.hourly_rate).toBe(hourCents / 100);
    const now = ctx.clock.now();
    const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
    const hoursLeft = (monthEnd - now.getTime()) / HOUR;
    // Every hour left in the month is one billable hour, not sixty.
    expect(row.forecasted_amount).toBeCloseTo(row.consumed_amount + (hourCents * hoursLeft) / 100, 1);
    expect(row.runway_hours).toBeCloseTo(row.balance / row.hourly_rate, 0);

    const cluster = (await get(ctx, `/api/cluster/consumption/overview/${owner.clusterId}`, owner.tokens.jwt)).json();
    expect(cluster.forecasted_amount).toBeLessThan(cluster.consumed_amount + (hourCents * (hoursLeft + 1)) / 100);
  });
});

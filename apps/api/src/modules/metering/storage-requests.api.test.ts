import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../clock.js';
import { stackNameFor } from '../../adapters/cloud/index.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';
import { get, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { rows } from '../../../test/support/metering.js';

const kinds = await databaseKinds();

describe.each(kinds)('storage API requests on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // 60 times real time: a billable hour is one real minute.
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
  });
  afterAll(() => ctx.close());
  const steps = clusterSteps(() => ctx);

  const requestCharges = (clusterId: string) =>
    rows<{ hour_start: Date; quantity: string; rate_e4: number; amount_cents: number }>(
      ctx,
      sql`select hour_start, quantity::text, rate_e4::int, amount_cents::int from metering_charges
          where cluster_id = ${clusterId} and dimension = 'PERSISTENT_STORAGE_REQUESTS' order by hour_start`,
    );

  it('charges each ended hour the requests the cloud counted, per 1,000 at the rate card, once; none while stopped', async () => {
    const owner = await steps.customer();
    const id = await steps.deployOnline(owner.jwt, owner.subscriptionId);
    // Four more billable hours online, charged as the minute job would.
    for (let minute = 0; minute < 4; minute++) {
      await steps.elapse(MINUTE, id);
      await ctx.services.metering.run();
    }
    const charges = await requestCharges(id);
    expect(charges.length).toBeGreaterThanOrEqual(3);
    const cloud = ctx.services.simulatedCloud!;
    const [hourMs] = (await rows<{ hour_ms: number }>(ctx, sql`select hour_ms::int from metering_clusters where cluster_id = ${id}`)).map(
      (r) => r.hour_ms,
    );
    const counted = await cloud.storageRequests(
      stackNameFor(id),
      charges.map((c) => ({ from: new Date(c.hour_start), to: new Date(new Date(c.hour_start).getTime() + hourMs!) })),
    );
    expect(counted.every((n) => n > 0)).toBe(true);
    // Quantities are thousands of requests; $0.005 per 1,000 by default, each hour rounded to the cent.
    expect(charges.map((c) => Number(c.quantity))).toEqual(counted.map((n) => n / 1000));
    expect(charges.map((c) => c.rate_e4)).toEqual(counted.map(() => 50));
    expect(charges.map((c) => c.amount_cents)).toEqual(counted.map((n) => Math.round((n / 1000) * 0.5)));

    // A replay charges nothing again.
    await ctx.services.metering.run();
    expect(await requestCharges(id)).toHaveLength(charges.length);

    // Stopped: the cloud counts no requests, so the stopped hours are not charged for them.
    const stop = await get(ctx, `/api/cluster/stop/${id}`, owner.jwt);
    expect(stop.statusCode, stop.body).toBe(200);
    await steps.elapse(MINUTE, id);
    await ctx.services.metering.run();
    const atStop = (await requestCharges(id)).length;
    for (let minute = 0; minute < 3; minute++) {
      await steps.elapse(MINUTE, id);
      await ctx.services.metering.run();
    }
    expect(await requestCharges(id)).toHaveLength(atStop);
    const storage = await rows<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from metering_charges where cluster_id = ${id} and dimension = 'PERSISTENT_STORAGE'
          and hour_start > (select max(hour_start) from metering_charges where cluster_id = ${id} and dimension = 'PERSISTENT_STORAGE_REQUESTS')`,
    );
    expect(storage[0]!.n).toBeGreaterThanOrEqual(3);
  });

  it('shows requests in the rate card, the cost and consumption tables and their CSV', async () => {
    const owner = await steps.customer('Requests');
    const id = await steps.deployOnline(owner.jwt, owner.subscriptionId);
    for (let minute = 0; minute < 3; minute++) {
      await steps.elapse(MINUTE, id);
      await ctx.services.metering.run();
    }
    const card = (await get(ctx, `/api/subscription/consumption/rates/${owner.subscriptionId}`, owner.jwt)).json();
    expect(card.service_rate.PERSISTENT_STORAGE_REQUESTS).toBe(0.005);
    expect(card.rates).toContainEqual({ dimension: 'PERSISTENT_STORAGE_REQUESTS', rate: 0.005, free_units: 0, unit: 'thousand requests' });

    const [charged] = await rows<{ cents: number; quantity: string }>(
      ctx,
      sql`select sum(amount_cents)::int as cents, sum(quantity)::text as quantity from metering_charges
          where cluster_id = ${id} and dimension = 'PERSISTENT_STORAGE_REQUESTS'`,
    );
    expect(charged!.cents).toBeGreaterThan(0);
    const month = new Date(ctx.clock.now());
    const startDate = `${month.getUTCFullYear()}-${String(month.getUTCMonth() + 1).padStart(2, '0')}-01T00:00:00`;
    const analysis = (
      await get(ctx, `/api/subscription/consumption/credit-analysis/${owner.subscriptionId}?startDate=${startDate}`, owner.jwt)
    ).json();
    expect(analysis.total_service_consumption.PERSISTENT_STORAGE_REQUESTS).toBe(charged!.cents / 100);
    const used = analysis.consumption.reduce(
      (sum: number, day: { usage: Record<string, number> }) => sum + day.usage.PERSISTENT_STORAGE_REQUESTS!,
      0,
    );
    expect(used).toBeCloseTo(Number(charged!.quantity), 3);
    expect(analysis.storage_total).toBeGreaterThanOrEqual(charged!.cents / 100);

    const csv = await get(
      ctx,
      `/api/subscription/consumption/export/${owner.subscriptionId}?startDate=${startDate}&table=consumption`,
      owner.jwt,
    );
    expect(csv.statusCode, csv.body).toBe(200);
    const [header, ...lines] = csv.body.trim().split('\r\n');
    const column = header!.split(',').indexOf('Storage API Requests (thousand requests)');
    expect(column).toBeGreaterThan(0);
    const total = lines.reduce((sum, line) => sum + Number(line.split(',')[column]), 0);
    expect(total).toBeCloseTo(Number(charged!.quantity), 3);
  });
});

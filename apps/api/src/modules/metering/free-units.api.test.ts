import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../clock.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { clusterEvent, meteredOwner, newMeteredCluster } from '../../../test/support/metering.js';

/** Free units are the account's: every screen shows how much of the one allowance is used, in the unit it is given in. */
const kinds = await databaseKinds();

describe.each(kinds)('free units on %s', (kind) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof meteredOwner>>;
  let second: string;
  const email = `free.units.${kind}@example.com`;

  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
    ctx.clock.set('2026-09-01T00:10:00Z');
    owner = await meteredOwner(ctx, email);
    second = await createSubscription(ctx, owner.tokens.jwt, 'Second');
    const cluster = await newMeteredCluster(ctx, owner.customer, second, { name: 'Beta' });
    await clusterEvent(ctx, cluster, 'CLUSTER_RESOURCES_CREATED');
    await clusterEvent(ctx, cluster, 'CLUSTER_DEPLOYED', 'ONLINE');
    // Two build nodes at once use the 50 free build hours in 25 hours.
    ctx.clock.advance(30 * HOUR + 5 * MINUTE);
    await ctx.services.metering.run();
    owner.tokens = await logIn(ctx, email);
  });
  afterAll(() => ctx.close());

  it("shows each subscription the account's free build hours used, which reach the rate card's allowance", async () => {
    const card = (await get(ctx, `/api/subscription/consumption/rates/${owner.subscriptionId}`, owner.tokens.jwt)).json();
    const allowance = card.free_units.DATA_PROCESS;
    expect(allowance).toBeGreaterThan(0);
    for (const subscriptionId of [owner.subscriptionId, second]) {
      const analysis = (await get(ctx, `/api/subscription/consumption/credit-analysis/${subscriptionId}`, owner.tokens.jwt)).json();
      expect(analysis.consumption.at(-1).free_build_up_to, subscriptionId).toBe(allowance);
      // Each subscription's own part is what its clusters took of it: about half here.
      expect(analysis.total_service_consumption.DATA_PROCESS_FREE).toBeGreaterThan(0);
    }
    const csv = await get(ctx, `/api/subscription/consumption/export/${second}?table=consumption`, owner.tokens.jwt);
    const [header, ...days] = csv.body.trim().split('\r\n');
    const column = header!.split(',').indexOf('Free build up to (build hours used by the account)');
    expect(column).toBeGreaterThan(0);
    expect(Number(days.at(-1)!.split(',')[column])).toBe(allowance);
  });
});

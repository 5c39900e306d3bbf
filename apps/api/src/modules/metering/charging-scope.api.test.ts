import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription } from '../../../test/support/money.js';
import { clusterEvent, newMeteredCluster, rows } from '../../../test/support/metering.js';

const kinds = await databaseKinds();

describe.each(kinds)('a metering run for one account on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());

  it("registers and charges that account's clusters only, leaving the others' check marks where they are", async () => {
    const [mine, theirs] = [await newCustomer(ctx), await newCustomer(ctx)];
    const clusters: string[] = [];
    for (const customer of [mine, theirs]) {
      const cluster = await newMeteredCluster(ctx, customer, await newSubscription(ctx, customer));
      await clusterEvent(ctx, cluster, 'CLUSTER_RESOURCES_CREATED');
      await clusterEvent(ctx, cluster, 'CLUSTER_DEPLOYED', 'ONLINE');
      clusters.push(cluster);
    }
    ctx.clock.advance(2 * HOUR + 10 * MINUTE);

    await ctx.services.metering.run({ accountId: mine.accountId });

    const charged = await rows<{ cluster_id: string; hours: number }>(
      ctx,
      sql`select cluster_id, count(distinct hour_start)::int as hours from metering_charges group by 1`,
    );
    expect(charged).toEqual([{ cluster_id: clusters[0], hours: 3 }]);
    const followed = await rows<{ cluster_id: string }>(ctx, sql`select cluster_id from metering_clusters`);
    expect(followed).toEqual([{ cluster_id: clusters[0] }]);

    // The next run of every account picks the other one up from its creation.
    await ctx.services.metering.run();
    const all = await rows<{ hours: number }>(
      ctx,
      sql`select count(distinct hour_start)::int as hours from metering_charges group by cluster_id order by 1`,
    );
    expect(all).toEqual([{ hours: 3 }, { hours: 3 }]);
  });
});

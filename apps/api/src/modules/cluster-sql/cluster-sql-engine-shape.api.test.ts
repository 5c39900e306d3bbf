import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESIZE_STEP_MINUTES } from '../../adapters/cloud/index.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { CLUSTER_PASSWORD, CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';
import { get, post, startTestApp, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

const basic = `Basic ${Buffer.from(`kumo_admin:${CLUSTER_PASSWORD}`).toString('base64')}`;

/**
 * A simulated cluster's engine runs on as many threads as its query-engine cores call for (one per 64 cores, at most
 * two): read from the engine itself through the cluster's endpoint, for the shape it was created with and after an
 * online resize each way.
 */
describe.each(kinds)("a cluster's engine follows its shape on %s", { timeout: 120_000 }, (kind) => {
  let ctx: TestContext;
  const { customer, deployOnline, elapse } = clusterSteps(() => ctx);
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
  });
  afterAll(() => ctx.close());

  /** The engine's own threads setting, asked through the endpoint the customer is given. */
  async function threadsOf(id: string, jwt: string): Promise<number> {
    const endpoint = (await get(ctx, `/api/cluster/details/${id}`, jwt)).json().sql_endpoint as string;
    const answer = await ctx.app.inject({
      method: 'POST',
      url: new URL(endpoint).pathname,
      payload: { query: "select current_setting('threads') as threads" },
      headers: { authorization: basic },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return Number(answer.json().rows[0][0]);
  }

  /** Resizes while online and waits until the query engines are in place. */
  async function resizeOnline(id: string, jwt: string, size: string, engines: number) {
    const answer = await post(ctx, `/api/cluster/resize/${id}`, { size, query_engines: engines }, jwt);
    expect(answer.json()).toMatchObject({ status: 'ONLINE', resizing: true });
    for (let step = 0; step < 12 && (await get(ctx, `/api/cluster/details/${id}`, jwt)).json().resizing_to !== null; step += 1) {
      await elapse(simMinutes(RESIZE_STEP_MINUTES), id);
    }
    expect((await get(ctx, `/api/cluster/details/${id}`, jwt)).json()).toMatchObject({ size, query_engines: engines, resizing_to: null });
  }

  it('opens the engine with the threads of the shape created, and of each shape an online resize brings', async () => {
    const { jwt, subscriptionId } = await customer();
    // S × 2 is 16 cores: one thread.
    const small = await deployOnline(jwt, subscriptionId, { cluster_name: 'Small_One', size: 'S', query_engines: 2 });
    expect(await threadsOf(small, jwt)).toBe(1);
    // M × 5, the default, is 80 cores: two threads.
    const plain = await deployOnline(jwt, subscriptionId, { cluster_name: 'Plain_One', cidr: '10.1.0.0/16' });
    expect(await threadsOf(plain, jwt)).toBe(2);

    // Up to L × 4 (128 cores) and down to XS × 1 (4 cores), online: the engine reopens with the new shape's threads.
    await resizeOnline(small, jwt, 'L', 4);
    expect(await threadsOf(small, jwt)).toBe(2);
    await resizeOnline(small, jwt, 'XS', 1);
    expect(await threadsOf(small, jwt)).toBe(1);
  });
});

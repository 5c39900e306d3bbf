import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import type { ClusterDescription } from '../../adapters/cloud/index.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { GatedCloud, runningCluster } from '../../../test/support/gated-cloud.js';
import { get, post, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CLUSTER_JOBS } from './index.js';

const kinds = await databaseKinds();
let counter = 0;

const deploying: ClusterDescription = { stackStatus: 'CREATE_IN_PROGRESS', deploymentStatus: null, powerState: 'PENDING', nodes: [] };

/**
 * What a polling console costs: each read it repeats is one indexed query, with no lock, no transaction and no
 * cloud call; the jobs alone bring the rows up to date.
 */
describe.each(kinds)('cluster status reads on %s', (kind) => {
  let ctx: TestContext;
  const cloud = new GatedCloud();
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { provisioner: cloud } });
  });
  afterAll(() => ctx.close());

  /** Every statement the test database is sent while `read` runs (the pool's and any transaction's). */
  async function statementsDuring(read: () => Promise<unknown>): Promise<string[]> {
    const database = new URL(ctx.database.url).pathname.slice(1);
    const spy = vi.spyOn(pg.Client.prototype, 'query');
    try {
      await read();
      return spy.mock.calls
        .filter((_, i) => (spy.mock.contexts[i] as pg.Client).database === database)
        .map(([query]) => (typeof query === 'string' ? query : (query as { text: string }).text).toLowerCase());
    } finally {
      spy.mockRestore();
    }
  }

  it('answers the polled reads of a moving cluster with one query each, no lock and no cloud call', async () => {
    const { jwt } = await signUp(ctx, `reads${++counter}.${Date.now()}@example.com`, 'Rhea Reads');
    const subscriptionId = await createSubscription(ctx, jwt, 'Polled');
    const created = await post(
      ctx,
      '/api/cluster/create',
      {
        subscription_id: subscriptionId,
        cluster_name: 'Watched',
        cloud_provider: 'AWS',
        cidr: '10.0.0.0/16',
        region: 'us-east-1',
        password: 'Sup3r#Secret-pw',
        kumo_version: '2026.10.1',
      },
      jwt,
    );
    expect(created.statusCode, created.body).toBe(200);
    const id = String(created.json().deployment_id);
    cloud.description = deploying;
    await ctx.services.clusters.followJob(id);
    expect(cloud.calls).toEqual(['create', 'describe']);

    // The cloud has finished meanwhile; nobody has looked yet.
    cloud.description = runningCluster;
    cloud.calls.length = 0;
    const polls = {
      status: `/api/cluster/deployment-details/status/${id}`,
      list: '/api/cluster/view',
      subscriptionList: `/api/cluster/view?subscriptionId=${subscriptionId}`,
    };
    for (const [name, url] of Object.entries(polls)) {
      let body: unknown;
      const statements = await statementsDuring(async () => {
        const response = await get(ctx, url, jwt);
        expect(response.statusCode, response.body).toBe(200);
        body = response.json();
      });
      // The guard's session check, then the read itself.
      expect(statements, name).toHaveLength(2);
      expect(statements[0], name).toMatch(/from "sessions"/);
      expect(statements[1], name).toMatch(/"clusters"/);
      expect(statements.join('\n'), name).not.toMatch(/for update|for share|^begin/m);
      expect(JSON.stringify(body), name).toContain('"DEPLOYING"');
    }
    expect(cloud.calls).toEqual([]);

    // The follow job brings the row up to date, and then the reads show it.
    ctx.jobs.sent.length = 0;
    await ctx.services.clusters.followJob(id);
    expect(cloud.calls).toEqual(['describe']);
    expect((await get(ctx, polls.status, jwt)).json().status).toBe('ONLINE');
    expect((await get(ctx, polls.list, jwt)).json()[0].clusters[0].status).toBe('ONLINE');
    // Settled: it is no longer followed.
    expect(ctx.jobs.sent.filter((job) => job.queue === CLUSTER_JOBS.follow)).toEqual([]);

    // The list shows the cluster as its own page does, which adds its configuration, nodes and SQL connection; its links are the
    // plain addresses, with no single-sign-on ticket (each person asks for one of their own when opening a window).
    const listed = (await get(ctx, polls.list, jwt)).json()[0].clusters[0];
    const { detail, cluster_configurations, nodes, sql_endpoint, sql_user, ...page } = (
      await get(ctx, `/api/cluster/details/${id}`, jwt)
    ).json();
    expect([detail, cluster_configurations.length > 0, nodes.length > 0]).toEqual(['CURRENT', true, true]);
    expect([sql_endpoint, sql_user]).toEqual([null, 'kumo_admin']);
    expect(listed.kumo_manager_url).toBe('https://km.example/');
    expect(listed.kumo_url).toBe('https://portal.example/');
    expect(listed).toEqual(page);
    expect(listed).toMatchObject({
      deployment_id: id,
      cluster_name: 'Watched',
      subscription_id: subscriptionId,
      subscription_name: 'Polled',
      deployed_by: 'Rhea Reads',
      cluster_stack_status: 'CREATE_COMPLETE',
      kumo_cluster_deployment_status: 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
    });
    expect(listed.deployed_on).not.toBeNull();
  });
});

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_SQL_MESSAGES, CLUSTER_SQL_USER } from '@kumo/contract';
import {
  createAwsSqlClient,
  PORTAL_SQL_USER,
  SqlRefusal,
  type ClusterSqlPort,
  type EndpointActivityPage,
  type EndpointQueryRecord,
  type SqlCredential,
} from '../../adapters/cloud/index.js';
import { CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, post, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { createClusterSqlService } from './index.js';

const kinds = await databaseKinds();

/**
 * An AWS endpoint's activity record as the driver reads it, served from memory: records after a cursor (their ids are
 * numbers), two per page. `ignoreCursor` serves everything again, as a second process or a retried pull would see it.
 */
function endpointWithActivity() {
  const records: EndpointQueryRecord[] = [];
  const reads: { stackName: string; credential: SqlCredential; cursor: string | null }[] = [];
  const state = { ignoreCursor: false, down: false, stack: '' };
  const port: ClusterSqlPort = {
    endpointFor: () => null,
    query: async () => {
      throw new Error('not used');
    },
    setPassword: async () => undefined,
    async activity(stackName, credential, cursor): Promise<EndpointActivityPage> {
      reads.push({ stackName, credential, cursor });
      if (state.down) throw new SqlRefusal(503, 'SQL_ENDPOINT_UNAVAILABLE', CLUSTER_SQL_MESSAGES.engineUnavailable);
      // Another cluster's endpoint has nothing to tell.
      if (stackName !== state.stack) return { records: [], cursor, more: false };
      const after = state.ignoreCursor || cursor === null ? 0 : Number(cursor);
      const page = records.filter((r) => Number(r.recordId) > after).slice(0, 2);
      const last = page.at(-1)?.recordId ?? cursor;
      return { records: page, cursor: last, more: records.some((r) => Number(r.recordId) > Number(last ?? 0)) };
    },
  };
  return { port, records, reads, state };
}

describe.each(kinds)("reading an AWS cluster's endpoint activity on %s", (kind) => {
  let ctx: TestContext;
  const steps = clusterSteps(() => ctx);
  let owner: { email: string; jwt: string; subscriptionId: string };
  let clusterId: string;
  const endpoint = endpointWithActivity();
  const service = () =>
    createClusterSqlService({
      db: ctx.infra.db,
      clusters: ctx.services.clusters,
      sql: endpoint.port,
      clock: ctx.clock,
      allowsAddress: async () => true,
    });

  const history = async () => (await get(ctx, `/api/cluster/queries/${clusterId}?size=100`, owner.jwt)).json().content;
  const record = (id: number, minutesAgo: number, rest: Partial<EndpointQueryRecord> = {}): EndpointQueryRecord => ({
    deploymentId: 'named-by-the-driver',
    recordId: String(id),
    startedAt: new Date(ctx.clock.now().getTime() - minutesAgo * 60_000),
    durationMs: 12,
    rowCount: 1,
    status: 'OK',
    userLabel: CLUSTER_SQL_USER,
    clientAddress: '203.0.113.7',
    userAgent: 'DBeaver 24.1',
    query: `select ${id}`,
    error: null,
    ...rest,
  });

  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    owner = await steps.customer();
    clusterId = await steps.deployOnline(owner.jwt, owner.subscriptionId);
    endpoint.state.stack = `kumo-${clusterId}`;
  });
  afterAll(async () => ctx?.close());

  it('is a minute job only where the endpoints keep an activity record', () => {
    expect(service().pullsActivity).toBe(true);
    expect(ctx.services.clusterSql.pullsActivity).toBe(false);
  });

  it("records what reached the endpoint in the history, page by page with the portal's credential, leaving out the portal's own queries", async () => {
    endpoint.records.push(
      record(1, 9),
      record(2, 8, { userLabel: PORTAL_SQL_USER, query: 'select from the console' }),
      record(3, 7, {
        status: 'REFUSED',
        userLabel: 'scanner',
        clientAddress: '198.51.100.9',
        userAgent: 'zgrab/0.x',
        rowCount: null,
        query: '',
        error: CLUSTER_SQL_MESSAGES.credentialsInvalid,
      }),
      record(4, 6, { status: 'FAILED', rowCount: null, error: 'Parser Error: syntax error', query: 'selec 4' }),
    );
    expect(await service().pullActivity()).toBe(3);
    expect(endpoint.reads.map((r) => r.cursor)).toEqual([null, '2']);
    expect(endpoint.reads[0]).toMatchObject({ stackName: `kumo-${clusterId}`, credential: { user: PORTAL_SQL_USER } });

    const entries = await history();
    expect(entries.map((e: { query: string; status: string; source: string }) => [e.query, e.status, e.source])).toEqual([
      ['selec 4', 'FAILED', 'ENDPOINT'],
      ['', 'REFUSED', 'ENDPOINT'],
      ['select 1', 'OK', 'ENDPOINT'],
    ]);
    expect(entries[1]).toMatchObject({
      user: 'scanner',
      client_address: '198.51.100.9',
      user_agent: 'zgrab/0.x',
      error: CLUSTER_SQL_MESSAGES.credentialsInvalid,
    });
    expect(entries[2]).toMatchObject({ user: CLUSTER_SQL_USER, client_address: '203.0.113.7', row_count: 1, duration_ms: 12 });
  });

  it('records each record once however often it is read: a second pull, two processes at once, a pull read again from the start', async () => {
    endpoint.records.push(record(5, 5));
    expect(await service().pullActivity()).toBe(1);
    expect(await service().pullActivity()).toBe(0);
    endpoint.state.ignoreCursor = true;
    await Promise.all([service().pullActivity(), service().pullActivity()]);
    endpoint.state.ignoreCursor = false;
    const queries = (await history()).map((e: { query: string }) => e.query);
    expect(queries).toEqual(['select 5', 'selec 4', '', 'select 1']);
  });

  it('counts the endpoint queries as activity and a refused attempt not at all', async () => {
    endpoint.records.push(
      record(6, 2, { status: 'REFUSED', userLabel: 'scanner', clientAddress: '198.51.100.9', rowCount: null, query: '', error: 'no' }),
    );
    await service().pullActivity();
    const autoStop = (await get(ctx, `/api/cluster/auto-stop/${clusterId}`, owner.jwt)).json();
    expect(autoStop.last_activity_at).toBe(endpoint.records.find((r) => r.recordId === '5')!.startedAt.toISOString());
    expect(autoStop.wake_sources).toEqual([
      expect.objectContaining({ source: 'ENDPOINT', client_address: '203.0.113.7', user: CLUSTER_SQL_USER, queries: 3 }),
    ]);
  });

  it('leaves the history and the cursor as they were when the endpoint cannot be reached, and reads on once it can', async () => {
    endpoint.records.push(record(7, 1));
    endpoint.state.down = true;
    expect(await service().pullActivity()).toBe(0);
    endpoint.state.down = false;
    expect(await service().pullActivity()).toBe(1);
    expect((await history())[0]).toMatchObject({ query: 'select 7', status: 'OK' });
    expect((await history()).length).toBe(6);
  });

  it("answers a console query 503 with Retry-After, never a 500, when the cluster's endpoint does not answer", async () => {
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/`;
    await new Promise((resolve) => dead.close(resolve));
    // A second portal on the same database whose cloud reaches the cluster over the network, as on AWS.
    const aws = await startTestApp(kind, {
      sameDatabaseAs: ctx,
      cloud: { provisioner: { ...ctx.services.simulatedCloud!, sql: createAwsSqlClient({ portalUrlOf: async () => deadUrl }) } },
    });
    try {
      const response = await post(aws, `/api/cluster/query/${clusterId}`, { query: 'select 1' }, owner.jwt);
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBeDefined();
      expect(errorCode(response)).toBe('SQL_ENDPOINT_UNAVAILABLE');
      expect(response.json().errorDetails.error_message).toBe(CLUSTER_SQL_MESSAGES.engineUnavailable);
      const consoleQueries = (await history()).filter((e: { source: string }) => e.source === 'CONSOLE');
      expect(consoleQueries).toEqual([
        expect.objectContaining({ query: 'select 1', status: 'FAILED', error: CLUSTER_SQL_MESSAGES.engineUnavailable }),
      ]);
    } finally {
      await aws.close();
    }
  });

  it('says the history holds what reached an endpoint before a moment only once a read begun after it went to the end', async () => {
    const reader = service();
    const before = ctx.clock.now();
    ctx.clock.advance(60_000);
    expect(await reader.endpointActivityKnownUntil(clusterId, ctx.clock.now())).toBe(false);
    endpoint.state.down = true;
    await reader.pullActivity();
    expect(await reader.endpointActivityKnownUntil(clusterId, ctx.clock.now())).toBe(false);
    endpoint.state.down = false;
    await reader.pullActivity();
    expect(await reader.endpointActivityKnownUntil(clusterId, ctx.clock.now())).toBe(true);
    expect(await reader.endpointActivityKnownUntil(clusterId, before)).toBe(true);
    expect(await ctx.services.clusterSql.endpointActivityKnownUntil(clusterId, new Date(ctx.clock.now().getTime() + 3_600_000))).toBe(true);
  });

  it('calls a cluster on AWS idle only once its endpoint was read past the moment it fell due', async () => {
    const quiet = await steps.deployOnline(owner.jwt, owner.subscriptionId, { cluster_name: 'Quiet', cidr: '10.9.0.0/16' });
    const simulated = ctx.services.simulatedCloud!;
    const aws = await startTestApp(kind, {
      sameDatabaseAs: ctx,
      cloud: { provisioner: { ...simulated, sql: { ...simulated.sql, activity: endpoint.port.activity } } },
    });
    try {
      // 60 of the cloud's minutes are 60 s here: an hour on, the new cluster is long past its idle time.
      aws.clock.set(new Date(ctx.clock.now().getTime() + 3_600_000));
      endpoint.state.down = true;
      await aws.services.clusterSql.pullActivity();
      await aws.services.autoStop.sweepIdle();
      expect((await steps.status(owner.jwt, quiet)).status).toBe('ONLINE');

      endpoint.state.down = false;
      await aws.services.clusterSql.pullActivity();
      await aws.services.autoStop.sweepIdle();
      expect((await steps.status(owner.jwt, quiet)).status).toBe('STOPPING');
    } finally {
      await aws.close();
    }
  });
});

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_SQL_LIMITS, CLUSTER_SQL_MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { CLUSTER_PASSWORD, CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';
import { errorCode, get, send, startTestApp, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe.each(kinds)("a cluster's SQL endpoint on %s", (kind) => {
  let ctx: TestContext;
  const steps = clusterSteps(() => ctx);
  let owner: { email: string; jwt: string; subscriptionId: string };
  let clusterId: string;
  const endpoint = (id = clusterId) => `/sim/kumo/kumo-${id}/sql`;

  function ask(body: unknown, options: { auth?: string; ip?: string; userAgent?: string; id?: string } = {}) {
    // The history is newest first: each request a second after the one before.
    ctx.clock.advance(1000);
    return ctx.app.inject({
      method: 'POST',
      url: endpoint(options.id),
      payload: body as object,
      remoteAddress: options.ip ?? '203.0.113.7',
      headers: {
        ...(options.auth === '' ? {} : { authorization: options.auth ?? basic('kumo_admin', CLUSTER_PASSWORD) }),
        'user-agent': options.userAgent ?? 'DBeaver 24.1',
      },
    });
  }

  const history = async (id = clusterId) => (await get(ctx, `/api/cluster/queries/${id}?size=100`, owner.jwt)).json().content;

  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    owner = await steps.customer();
    clusterId = await steps.deployOnline(owner.jwt, owner.subscriptionId);
  });
  afterAll(async () => ctx?.close());

  it('answers a query on the sample dataset with the columns, their types and the rows', async () => {
    const response = await ask({
      query: 'select count(*) as orders, count(distinct customer_id) as customers from samples.orders',
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.columns).toEqual([
      { name: 'orders', type: 'BIGINT' },
      { name: 'customers', type: 'BIGINT' },
    ]);
    expect(body.rows).toEqual([['100000', '2000']]);
    expect(body).toMatchObject({ row_count: 1, truncated: false });
    expect(body.elapsed_ms).toBeGreaterThanOrEqual(0);
    const [latest] = await history();
    expect(latest).toMatchObject({
      status: 'OK',
      source: 'ENDPOINT',
      user: 'kumo_admin',
      client_address: '203.0.113.7',
      user_agent: 'DBeaver 24.1',
      row_count: 1,
      error: null,
    });
    expect(latest.query).toContain('from samples.orders');
  });

  it('cuts an answer at max_rows, 1,000 by default, and says it did', async () => {
    const five = (await ask({ query: 'select * from samples.orders order by order_id', max_rows: 5 })).json();
    expect(five).toMatchObject({ row_count: 5, truncated: true });
    expect(five.rows.map((row: unknown[]) => row[0])).toEqual(['1', '2', '3', '4', '5']);
    const standard = (await ask({ query: 'select order_id from samples.orders' })).json();
    expect([standard.row_count, standard.rows.length, standard.truncated]).toEqual([CLUSTER_SQL_LIMITS.defaultMaxRows, 1000, true]);
    const all = (await ask({ query: 'select * from samples.regions' })).json();
    expect([all.row_count, all.truncated]).toEqual([5, false]);
  });

  it('refuses a wrong password, another user and no credentials with 401, and keeps each attempt', async () => {
    for (const auth of [basic('kumo_admin', 'Wrong#Password1'), basic('postgres', CLUSTER_PASSWORD), '']) {
      const response = await ask({ query: 'select 1' }, { auth, userAgent: 'curl/8.5' });
      expect([response.statusCode, errorCode(response)]).toEqual([401, 'CREDENTIALS_INVALID']);
      expect(response.headers['www-authenticate']).toContain('Basic');
    }
    const refused = (await history()).filter((entry: { status: string }) => entry.status === 'REFUSED');
    expect(refused.slice(0, 3).map((entry: { user: string }) => entry.user)).toEqual(['anonymous', 'postgres', 'kumo_admin']);
    expect(refused[0]).toMatchObject({
      client_address: '203.0.113.7',
      user_agent: 'curl/8.5',
      error: CLUSTER_SQL_MESSAGES.credentialsInvalid,
    });
  });

  it("answers the engine's own message for a query it cannot run", async () => {
    const response = await ask({ query: 'select nope from samples.orders' });
    expect([response.statusCode, errorCode(response)]).toEqual([400, 'QUERY_FAILED']);
    expect(response.json().errorDetails.error_message).toMatch(/nope/);
    expect((await history())[0]).toMatchObject({ status: 'FAILED', row_count: null });
  });

  it('refuses every statement that would reach outside the cluster', async () => {
    for (const query of [
      "select * from read_csv('/etc/passwd')",
      "SELECT * FROM read_text('/etc/hostname')",
      "select * from '/etc/passwd'",
      "select * from glob('/*')",
      "attach '/tmp/other.duckdb' as other",
      'install httpfs',
      'load httpfs',
      'set enable_external_access = true',
      'PRAGMA enable_profiling',
      "copy samples.orders to '/tmp/orders.csv'",
      "export database '/tmp/dump'",
      "import database '/tmp/dump'",
      "create secret s3 (type s3, key_id 'x', secret 'y')",
      "select 1; /* hidden */ copy (select 1) to '/tmp/x.csv'",
    ]) {
      const response = await ask({ query });
      expect([query, response.statusCode, errorCode(response)]).toEqual([query, 400, 'STATEMENT_REFUSED']);
    }
    // Words inside a string are only text.
    const literal = await ask({ query: "select 'attach, copy and read_csv(x) are words' as text" });
    expect(literal.statusCode, literal.body).toBe(200);
  });

  it('refuses a query over 100 KB with 413, and a body that is not a query with 400', async () => {
    const padding = '-'.repeat(CLUSTER_SQL_LIMITS.maxQueryBytes);
    const large = await ask({ query: `select 1 ${padding}` });
    expect([large.statusCode, errorCode(large)]).toEqual([413, 'QUERY_TOO_LARGE']);
    const empty = await ask({ query: '  ' });
    expect([empty.statusCode, errorCode(empty)]).toEqual([400, 'VALIDATION_FAILED']);
    const rows = await ask({ query: 'select 1', max_rows: 0 });
    expect(rows.statusCode).toBe(400);
  });

  it('follows the access list saved on the cluster: an address left out gets 403 and is kept as refused, then let in', async () => {
    // The endpoint the customer is given, not one put together here.
    const details = (await get(ctx, `/api/cluster/details/${clusterId}`, owner.jwt)).json();
    const path = new URL(details.sql_endpoint as string).pathname;
    const at = (address: string) => {
      ctx.clock.advance(1000);
      return ctx.app.inject({
        method: 'POST',
        url: path,
        payload: { query: 'select count(*) as regions from samples.regions' },
        remoteAddress: address,
        headers: { authorization: basic('kumo_admin', CLUSTER_PASSWORD), 'user-agent': 'psql-http' },
      });
    };
    const save = async (allowed: { cidr: string; description: string }[], anywhere = false) => {
      const saved = await send(ctx, 'PUT', `/api/cluster/network-access/${clusterId}`, { allow_anywhere: anywhere, allowed }, owner.jwt);
      expect(saved.statusCode, saved.body).toBe(200);
    };
    const office = { cidr: '198.51.100.0/24', description: 'Office' };
    try {
      await save([office]);
      const refused = await at('203.0.113.7');
      expect([refused.statusCode, errorCode(refused)]).toEqual([403, 'NETWORK_ACCESS_DENIED']);
      expect(refused.json().errorDetails.error_message).toBe(CLUSTER_SQL_MESSAGES.networkAccessDenied);
      expect((await history())[0]).toMatchObject({
        status: 'REFUSED',
        source: 'ENDPOINT',
        client_address: '203.0.113.7',
        user: 'kumo_admin',
        user_agent: 'psql-http',
        row_count: null,
        error: CLUSTER_SQL_MESSAGES.networkAccessDenied,
      });
      // An address inside the list passes meanwhile; an IPv4 address written as IPv6 is the same address.
      expect((await at('198.51.100.20')).statusCode).toBe(200);
      expect((await at('::ffff:203.0.113.7')).statusCode).toBe(403);

      await save([office, { cidr: '203.0.113.7', description: 'Laptop' }]);
      const letIn = await at('203.0.113.7');
      expect(letIn.statusCode, letIn.body).toBe(200);
      expect(letIn.json().rows).toEqual([['5']]);
      expect((await history())[0]).toMatchObject({ status: 'OK', client_address: '203.0.113.7', row_count: 1 });
    } finally {
      await save([], true);
    }
  });

  it('answers 404 for a cluster it does not know', async () => {
    const response = await ask({ query: 'select 1' }, { id: '00000000-0000-4000-8000-000000000000' });
    expect(response.statusCode).toBe(404);
  });

  it("keeps the engine's file while the cluster is stopped, answers 409 then, and removes the file with the cluster", async () => {
    const id = await steps.deployOnline(owner.jwt, owner.subscriptionId, { cluster_name: 'Stoppable', cidr: '10.9.0.0/16' });
    expect((await ask({ query: "create table notes as select 'kept' as note" }, { id })).statusCode).toBe(200);
    const dataDir = ctx.infra.cloud!.simDataDir!;
    const file = join(dataDir, `kumo-${id}.duckdb`);
    expect(existsSync(file)).toBe(true);

    expect((await send(ctx, 'POST', `/api/cluster/stop/${id}`, undefined, owner.jwt)).statusCode).toBe(200);
    await steps.elapse(simMinutes(10), id);
    const stopped = await ask({ query: 'select 1' }, { id });
    expect([stopped.statusCode, errorCode(stopped)]).toEqual([409, 'CLUSTER_NOT_ONLINE']);
    expect(existsSync(file)).toBe(true);

    expect((await send(ctx, 'POST', `/api/cluster/start/${id}`, undefined, owner.jwt)).statusCode).toBe(200);
    await steps.elapse(simMinutes(10), id);
    expect((await ask({ query: 'select note from notes' }, { id })).json().rows).toEqual([['kept']]);

    await ctx.services.simulatedSql!.cloud.deleteCluster(`kumo-${id}`);
    expect(readdirSync(dataDir).filter((name) => name.includes(id))).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, CLUSTER_MESSAGES, CLUSTER_SQL_MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { personOf, peopleAround, type AccountPerson } from '../../../test/support/account-people.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { CLUSTER_PASSWORD, CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';
import { errorCode, get, post, signUp, startTestApp, type TestContext, type Tokens } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const SAMPLE_QUERY =
  'select region_name, count(*) as customers from samples.customers join samples.regions using (region_id) group by 1 order by 1';

describe.each(kinds)('the query console, its history and the password reset on %s', (kind) => {
  let ctx: TestContext;
  const steps = clusterSteps(() => ctx);
  let owner: AccountPerson & { email: string };
  let people: Awaited<ReturnType<typeof peopleAround>>;
  let clusterId: string;
  let subscriptionId: string;
  let writeToken: string;
  let readToken: string;

  const query = (id: string, tokens: Tokens | string | undefined, text = SAMPLE_QUERY) => {
    ctx.clock.advance(1000);
    const jwt = typeof tokens === 'string' ? tokens : tokens?.jwt;
    return post(ctx, `/api/cluster/query/${id}`, { query: text }, jwt);
  };
  const withToken = (method: 'GET' | 'POST', url: string, token: string, body?: unknown) => {
    ctx.clock.advance(1000);
    return ctx.app.inject({ method, url, payload: body as object | undefined, headers: { authorization: `Bearer ${token}` } });
  };
  const endpointAsk = (password: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/sim/kumo/kumo-${clusterId}/sql`,
      payload: { query: 'select 42' },
      headers: { authorization: basic('kumo_admin', password) },
    });

  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    const email = steps.freshEmail();
    owner = { ...(await personOf(ctx, await signUp(ctx, email, 'Olga Owner'))), email };
    subscriptionId = await createSubscription(ctx, owner.tokens.jwt, 'Analytics');
    clusterId = await steps.deployOnline(owner.tokens.jwt, subscriptionId);
    people = await peopleAround(ctx, owner, `${kind}.${Date.now()}`);
    const token = async (scope: 'READ' | 'WRITE') =>
      (
        await post(ctx, '/api/user/api-tokens', { name: `sql ${scope}`, scope, expires_in_days: 7, allowed_ips: [] }, owner.tokens.jwt)
      ).json().token as string;
    writeToken = await token('WRITE');
    readToken = await token('READ');
  });
  afterAll(async () => ctx?.close());

  it("runs an owner's query with the portal's credential and answers the rows with their types", async () => {
    const response = await query(clusterId, owner.tokens);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.columns).toEqual([
      { name: 'region_name', type: 'VARCHAR' },
      { name: 'customers', type: 'BIGINT' },
    ]);
    expect(body.rows).toContainEqual(['Europe', '400']);
    expect(body).toMatchObject({ row_count: 5, truncated: false });
    const [entry] = (await get(ctx, `/api/cluster/queries/${clusterId}`, owner.tokens.jwt)).json().content;
    expect(entry).toMatchObject({ status: 'OK', source: 'CONSOLE', user: owner.email, row_count: 5, query: SAMPLE_QUERY, error: null });
  });

  it('lets an admin and a WRITE token query; refuses a member, a READ token, a staff view, another account and no one', async () => {
    expect((await query(clusterId, people.admin)).statusCode).toBe(200);
    const scripted = await withToken('POST', `/api/cluster/query/${clusterId}`, writeToken, { query: 'select 1' });
    expect(scripted.statusCode, scripted.body).toBe(200);
    const member = await query(clusterId, people.member);
    expect(member.statusCode).toBe(403);
    const read = await withToken('POST', `/api/cluster/query/${clusterId}`, readToken, { query: 'select 1' });
    expect([read.statusCode, errorCode(read)]).toEqual([403, 'TOKEN_SCOPE']);
    const viewing = await query(clusterId, people.staffView);
    expect([viewing.statusCode, errorCode(viewing)]).toEqual([403, 'READ_ONLY_VIEW']);
    expect(viewing.json().errorDetails.error_message).toBe(ADMIN_MESSAGES.readOnlyView);
    expect((await query(clusterId, people.stranger)).statusCode).toBe(404);
    expect((await query(clusterId, undefined)).statusCode).toBe(401);

    const users = (await get(ctx, `/api/cluster/queries/${clusterId}?size=3`, owner.tokens.jwt))
      .json()
      .content.map((e: { user: string }) => e.user);
    expect(users[0]).toMatch(/\(API token "sql WRITE"\)$/);
    expect(users[1]).toBe(`people.admin.${users[1].split('people.admin.')[1]}`);
  });

  it("answers the engine's refusals in the contract's shape and records them", async () => {
    const failed = await query(clusterId, owner.tokens, 'select * from samples.missing');
    expect([failed.statusCode, errorCode(failed)]).toEqual([400, 'QUERY_FAILED']);
    expect(failed.json().errorDetails.error_message).toMatch(/missing/);
    const outside = await query(clusterId, owner.tokens, "select * from read_csv('/etc/passwd')");
    expect([outside.statusCode, errorCode(outside)]).toEqual([400, 'STATEMENT_REFUSED']);
    const large = await query(clusterId, owner.tokens, `select 1 -- ${'x'.repeat(100 * 1024)}`);
    expect([large.statusCode, errorCode(large)]).toEqual([413, 'QUERY_TOO_LARGE']);
    const empty = await query(clusterId, owner.tokens, ' ');
    expect([empty.statusCode, empty.json().field_errors?.query]).toEqual([400, CLUSTER_SQL_MESSAGES.queryRequired]);
    const entries = (await get(ctx, `/api/cluster/queries/${clusterId}?size=3`, owner.tokens.jwt)).json().content;
    expect(entries.map((e: { status: string }) => e.status)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(entries[0].query).toHaveLength(1000);
  });

  it('pages the history newest first, to its owners, admins and READ tokens only', async () => {
    const first = (await get(ctx, `/api/cluster/queries/${clusterId}?page=0&size=2`, owner.tokens.jwt)).json();
    const second = (await get(ctx, `/api/cluster/queries/${clusterId}?page=1&size=2`, people.admin.jwt)).json();
    expect(first.content).toHaveLength(2);
    expect(first.totalPages).toBeGreaterThanOrEqual(3);
    expect(second.totalPages).toBe(first.totalPages);
    expect(Date.parse(first.content[1].started_at)).toBeGreaterThan(Date.parse(second.content[0].started_at));
    expect((await withToken('GET', `/api/cluster/queries/${clusterId}`, readToken)).statusCode).toBe(200);
    expect((await get(ctx, `/api/cluster/queries/${clusterId}`, people.staffView.jwt)).statusCode).toBe(200);
    expect((await get(ctx, `/api/cluster/queries/${clusterId}`, people.member.jwt)).statusCode).toBe(403);
    expect((await get(ctx, `/api/cluster/queries/${clusterId}`, people.stranger.jwt)).statusCode).toBe(404);
    expect((await get(ctx, `/api/cluster/queries/${clusterId}?size=500`, owner.tokens.jwt)).statusCode).toBe(400);
  });

  it('answers 409 while the cluster is not online', async () => {
    const deploying = await steps.createCluster(owner.tokens.jwt, subscriptionId, { cluster_name: 'Young', cidr: '10.77.0.0/16' });
    const response = await query(deploying, owner.tokens);
    expect([response.statusCode, errorCode(response)]).toEqual([409, 'CLUSTER_NOT_ONLINE']);
    expect((await get(ctx, `/api/cluster/details/${clusterId}`, owner.tokens.jwt)).json()).toMatchObject({
      sql_endpoint: `http://portal.test/sim/kumo/kumo-${clusterId}/sql`,
      sql_user: 'kumo_admin',
    });
  });

  it('sets a new password by the create rules: the old one stops opening the endpoint, the new one opens it', async () => {
    expect((await endpointAsk(CLUSTER_PASSWORD)).statusCode).toBe(200);
    const weak = await post(ctx, `/api/cluster/reset-password/${clusterId}`, { password: 'short' }, owner.tokens.jwt);
    expect([weak.statusCode, weak.json().field_errors?.password]).toEqual([400, CLUSTER_MESSAGES.passwordFormat]);
    for (const [tokens, status] of [
      [people.member, 403],
      [people.staffView, 403],
      [people.stranger, 404],
    ] as const) {
      expect((await post(ctx, `/api/cluster/reset-password/${clusterId}`, { password: 'Other#Secret-9' }, tokens.jwt)).statusCode).toBe(
        status,
      );
    }
    const scripted = await withToken('POST', `/api/cluster/reset-password/${clusterId}`, writeToken, { password: 'Other#Secret-9' });
    expect(scripted.statusCode).toBe(403);

    const reset = await post(ctx, `/api/cluster/reset-password/${clusterId}`, { password: 'New#Secret-pw1' }, people.admin.jwt);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ deployment_id: clusterId, message: CLUSTER_SQL_MESSAGES.passwordReset });
    expect((await endpointAsk(CLUSTER_PASSWORD)).statusCode).toBe(401);
    expect((await endpointAsk('New#Secret-pw1')).statusCode).toBe(200);
    // The console's own credential is not the customer's password: it still works.
    expect((await query(clusterId, owner.tokens, 'select 1')).statusCode).toBe(200);

    // The owner may too: the admin's password stops opening the endpoint, the owner's opens it.
    const byOwner = await post(ctx, `/api/cluster/reset-password/${clusterId}`, { password: 'Owner#Secret-pw2' }, owner.tokens.jwt);
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect(byOwner.json()).toEqual({ deployment_id: clusterId, message: CLUSTER_SQL_MESSAGES.passwordReset });
    expect((await endpointAsk('New#Secret-pw1')).statusCode).toBe(401);
    expect((await endpointAsk('Owner#Secret-pw2')).statusCode).toBe(200);

    // Each reset is in the audit log with who made it, the owner's newest.
    const audit = (await get(ctx, `/api/cluster/get-audit-logs/${clusterId}`, owner.tokens.jwt)).json().page_content.content as {
      event: string;
      description: string;
      caused_by: string;
    }[];
    const resets = audit.filter((entry) => entry.event === 'CLUSTER_PASSWORD_RESET');
    expect(resets.map((entry) => entry.caused_by)).toEqual([owner.email, expect.stringMatching(/^people\.admin\./)]);
    expect(resets[0]!.description).toBe(`The password of Sales_Cluster-1's SQL user was changed by ${owner.email}.`);
  });
});

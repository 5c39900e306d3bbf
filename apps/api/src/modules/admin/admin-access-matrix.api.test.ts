import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { SYSTEM_ROLES, permissionsFor, type SystemRole } from '@kumo/contract';
import type { LightMyRequestResponse } from 'fastify';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { get, logIn, post, send, signUp, startTestApp, type TestContext, type Tokens } from '../../../test/support/harness.js';
import { ADMIN_ROUTE_PERMISSIONS } from './index.js';

/**
 * Every admin endpoint × the four staff roles × a customer (owner) × anonymous. A staff role gets the endpoint's
 * answer when its key is ENABLED for the role and 403 otherwise; customers 403; anonymous 401. The matrix must
 * name every registered admin route, so a new one cannot go untested.
 */
type Caller = 'anonymous' | 'owner' | SystemRole;
interface Fixture {
  userId: string;
  subscriptionId: string;
  clusterId: string;
}
interface Row {
  route: string;
  /** The permission the role needs beyond the route's own key (an action's key). */
  key?: string;
  /** The answer when allowed (some calls answer 404/422 for the fixture's data, after the key check). */
  allowed: number;
  call: (ctx: TestContext, tokens: Tokens | undefined, f: Fixture) => Promise<LightMyRequestResponse>;
}

const ROWS: Row[] = [
  { route: 'GET /api/admin/users', allowed: 200, call: (ctx, t) => get(ctx, '/api/admin/users', t?.jwt) },
  { route: 'GET /api/admin/users/:userId', allowed: 200, call: (ctx, t, f) => get(ctx, `/api/admin/users/${f.userId}`, t?.jwt) },
  { route: 'GET /api/admin/view-users/:userId', allowed: 200, call: (ctx, t, f) => get(ctx, `/api/admin/view-users/${f.userId}`, t?.jwt) },
  {
    route: 'GET /api/admin/view-subscriptions/:userId',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/view-subscriptions/${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/view/credit-transactions/:id',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/view/credit-transactions/${f.subscriptionId}?userId=${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/download-transaction-receipt/:transactionId',
    allowed: 404,
    call: (ctx, t, f) => get(ctx, `/api/admin/download-transaction-receipt/${randomUUID()}?userId=${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/cluster/view',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/cluster/view?userId=${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/node-details-view/:deploymentId',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/node-details-view/${f.clusterId}?userId=${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/current-resource-rate/:userId',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/current-resource-rate/${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/service-rate-history/:userId',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/service-rate-history/${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/cost-analysis/:userId',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/cost-analysis/${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/view/cumulative-cost-consumption',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/view/cumulative-cost-consumption?userId=${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/download-cluster-template/:deploymentId',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/download-cluster-template/${f.clusterId}?userId=${f.userId}`, t?.jwt),
  },
  {
    route: 'GET /api/admin/kumo/sso/:deploymentId',
    // The cluster is deploying: no manager yet, refused after the key check.
    allowed: 422,
    call: (ctx, t, f) => get(ctx, `/api/admin/kumo/sso/${f.clusterId}?userId=${f.userId}`, t?.jwt),
  },
  {
    route: 'POST /api/admin/kumo-ea-version/:userId',
    allowed: 200,
    call: (ctx, t, f) => send(ctx, 'POST', `/api/admin/kumo-ea-version/${f.userId}?action=DISABLE`, undefined, t?.jwt),
  },
  {
    route: 'GET /api/admin/check-km-access/:userId',
    allowed: 200,
    call: (ctx, t, f) => get(ctx, `/api/admin/check-km-access/${f.userId}`, t?.jwt),
  },
  {
    route: 'POST /api/admin/manage-km-access/:userId',
    // The fixture's cluster is deploying: the change is refused after the key check.
    allowed: 422,
    call: (ctx, t, f) =>
      post(ctx, `/api/admin/manage-km-access/${f.userId}`, { admin_access: true, km_user_role: 'Administrator' }, t?.jwt),
  },
  {
    route: 'POST /api/admin/action',
    key: 'customer_subscription_add_funds',
    allowed: 200,
    call: (ctx, t, f) =>
      post(
        ctx,
        '/api/admin/action',
        { action_name: 'add_funds', user_id: f.userId, action_payload: { amount: 5, subscription_id: f.subscriptionId, remark: 'Matrix' } },
        t?.jwt,
      ),
  },
  {
    route: 'POST /api/admin/action',
    key: 'customer_delete_cluster',
    // The deploying cluster cannot be deleted: refused after the key check.
    allowed: 409,
    call: (ctx, t, f) =>
      post(
        ctx,
        '/api/admin/action',
        { action_name: 'delete_cluster', user_id: f.userId, action_payload: { deployment_id: f.clusterId } },
        t?.jwt,
      ),
  },
  {
    route: 'POST /api/admin/action/authenticate',
    allowed: 404,
    call: (ctx, t) => post(ctx, '/api/admin/action/authenticate', { operation_id: randomUUID(), otp: '123456' }, t?.jwt),
  },
  {
    route: 'POST /api/admin/action/resend-otp',
    allowed: 404,
    call: (ctx, t) => post(ctx, '/api/admin/action/resend-otp', { operation_id: randomUUID() }, t?.jwt),
  },
  { route: 'GET /api/admin/approvals', allowed: 200, call: (ctx, t) => get(ctx, '/api/admin/approvals', t?.jwt) },
  { route: 'GET /api/admin/action/mine', allowed: 200, call: (ctx, t) => get(ctx, '/api/admin/action/mine', t?.jwt) },
  {
    route: 'POST /api/admin/action/cancel',
    allowed: 404,
    call: (ctx, t) => post(ctx, '/api/admin/action/cancel', { operation_id: randomUUID() }, t?.jwt),
  },
  {
    route: 'POST /api/admin/add-amount',
    allowed: 200,
    call: (ctx, t, f) =>
      post(ctx, '/api/admin/add-amount', { user_id: f.userId, action_payload: { amount: 5, subscription_id: f.subscriptionId } }, t?.jwt),
  },
  {
    route: 'POST /api/admin/update-account-metrics',
    allowed: 200,
    call: (ctx, t, f) =>
      post(
        ctx,
        '/api/admin/update-account-metrics',
        { user_id: f.userId, action_payload: { outstanding_limit: 10, user_id: f.userId } },
        t?.jwt,
      ),
  },
  {
    route: 'POST /api/admin/update-service-rate',
    allowed: 200,
    call: (ctx, t, f) =>
      post(
        ctx,
        '/api/admin/update-service-rate',
        { user_id: f.userId, action_payload: { user_id: f.userId, updated_service_rates: [{ dimension: 'BI_SERVER', rate: '0.07' }] } },
        t?.jwt,
      ),
  },
  {
    route: 'GET /api/admin/delete-cluster/:deploymentId',
    // The deploying cluster cannot be deleted: refused after the key check.
    allowed: 409,
    call: (ctx, t, f) => get(ctx, `/api/admin/delete-cluster/${f.clusterId}?userId=${f.userId}`, t?.jwt),
  },
  {
    route: 'POST /api/admin/switch-user/:userId',
    allowed: 200,
    call: (ctx, t, f) => send(ctx, 'POST', `/api/admin/switch-user/${f.userId}`, undefined, t?.jwt),
  },
];

const kinds = await databaseKinds();

/** Staff are made directly in the database, as operators do (there is no sign-up for staff). */
async function insertStaff(ctx: TestContext, email: string, name: string, role: string): Promise<void> {
  await ctx.database.db.execute(
    sql`insert into users (email, name, system_role, created_at) values (${email}, ${name}, ${role}, ${ctx.clock.now().toISOString()})`,
  );
}

describe.each(kinds)('admin access matrix on %s', (kind) => {
  let ctx: TestContext;
  const callers = new Map<Caller, Tokens | undefined>();
  let fixture: Fixture;

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    const stamp = Date.now();
    const owner = await signUp(ctx, `admin.matrix.owner.${stamp}@example.com`, 'Mona Owner');
    const subscriptionId = await createSubscription(ctx, owner.jwt, 'Matrix Main');
    const clusterId = (
      await post(
        ctx,
        '/api/cluster/create',
        {
          subscription_id: subscriptionId,
          cluster_name: 'Matrix_Admin',
          description: '',
          cloud_provider: 'AWS',
          enable_dr_flag: false,
          cidr: '10.90.0.0/16',
          region: 'us-east-1',
          backup_region: null,
          password: 'Matrix#Passw0rd',
          kumo_version: '2026.10.1',
        },
        owner.jwt,
      )
    ).json().deployment_id as string;
    fixture = { userId: (await get(ctx, '/api/user/detail', owner.jwt)).json().userId, subscriptionId, clusterId };
    callers.set('anonymous', undefined);
    callers.set('owner', owner);
    // Two SYSTEM_ADMINs so every requester has an approver.
    await insertStaff(ctx, `admin.matrix.approver.${stamp}@kumo.test`, 'Alex Approver', 'SYSTEM_ADMIN');
    for (const role of SYSTEM_ROLES) {
      const email = `admin.matrix.${role.toLowerCase()}.${stamp}@kumo.test`;
      await insertStaff(ctx, email, 'Stan Staff', role);
      callers.set(role, await logIn(ctx, email));
    }
  });
  afterAll(() => ctx.close());

  it('names every registered admin route', () => {
    const covered = new Set(ROWS.map((row) => row.route));
    expect([...ADMIN_ROUTE_PERMISSIONS.keys()].filter((route) => !covered.has(route))).toEqual([]);
  });

  const expectedFor = (row: Row, caller: Caller): number => {
    if (caller === 'anonymous') return 401;
    if (caller === 'owner') return 403;
    const permissions = permissionsFor(caller);
    const routeKey = ADMIN_ROUTE_PERMISSIONS.get(row.route);
    const enabled = permissions[routeKey!] === 'ENABLED' && (!row.key || permissions[row.key] === 'ENABLED');
    return enabled ? row.allowed : 403;
  };

  describe.each(ROWS.map((row) => ({ ...row, name: `${row.route}${row.key ? ` (${row.key})` : ''}` })))('$name', (row) => {
    it.each(['anonymous', 'owner', ...SYSTEM_ROLES] as Caller[])('%s', async (caller) => {
      const response = await row.call(ctx, callers.get(caller), fixture);
      expect({ caller, status: response.statusCode }).toEqual({ caller, status: expectedFor(row, caller) });
    });
  });
});

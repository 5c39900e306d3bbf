import type { SYSTEM_ROLES } from '@kumo/contract';
import { get, post, send, type TestContext, type Tokens } from './harness.js';
import { clusterBody } from './clusters.js';

/**
 * Every endpoint, called by every kind of caller: what each may do is exactly what the roles allow.
 * Statuses: 2xx allowed; 401 not signed in; 403 role refused; 404 nothing of yours there.
 */
export type Caller = 'anonymous' | 'owner' | 'admin' | 'member' | 'otherOwner' | (typeof SYSTEM_ROLES)[number];

export interface EndpointCase {
  /** The route as the OpenAPI document names it (method and path template), so the test can tell which routes have rows. */
  route: string;
  /** What the call aims at, where the route alone does not say. */
  target?: string;
  call: (ctx: TestContext, tokens: Tokens | undefined, fixture: Fixture) => ReturnType<typeof get>;
  expected: Partial<Record<Caller, number>> & { default: number };
}

/** A row's name in the test's output. */
export const caseName = (row: EndpointCase) => (row.target ? `${row.route} (${row.target})` : row.route);

export interface Fixture {
  adminEmail: string;
  /** A subscription of the owner's account. */
  subscriptionId: string;
  /** The owner's access token, to set up a fresh pending invitation for each call that uses one up. */
  ownerJwt: string;
  /** A pending invitation of the owner's account. */
  invitationId: string;
  /** A deploying cluster of the owner's account, and a failed one (deletable) with a pending delete approval. */
  clusterId: string;
  failedClusterId: string;
  operationId: string;
  /** A webhook of the owner's account. */
  webhookId: string;
  /** The session id of a checkout the owner opened and left pending, and the transaction of one the owner paid. */
  pendingSessionId: string;
  paidTransactionId: string;
}

/** A new pending invitation of the owner's account (revoking uses one up). */
export async function pendingInvitation(ctx: TestContext, f: Fixture): Promise<string> {
  const invited = await post(
    ctx,
    '/api/user/invite',
    { invited_user_id: `matrix.pending${++inviteCounter}@example.com`, invited_user_name: 'Pat Pending', role: 'ACCOUNT_ADMIN' },
    f.ownerJwt,
  );
  return invited.json().invitation_id;
}

export const CUSTOMER_AREA = { owner: 200, admin: 200, otherOwner: 200, anonymous: 401, default: 403 };
/** The owner's account's own resource: another account's owner finds nothing there. */
export const OWNERS_ACCOUNT = { ...CUSTOMER_AREA, otherOwner: 404 };
let subscriptionCounter = 0;
let inviteCounter = 0;
let clusterCounter = 0;
/** The owner's deploying cluster: start and stop are refused for its state (409) once the caller may see it. */
export const OWNERS_BUSY_CLUSTER = { ...OWNERS_ACCOUNT, owner: 409, admin: 409 };
/** A create body of its own each time: a name and a network no other matrix cluster has. */
export const matrixClusterBody = (subscriptionId: string) => {
  const n = ++clusterCounter;
  return clusterBody(subscriptionId, { cluster_name: `Matrix_${n}`, cidr: `10.${100 + n}.0.0/16` });
};

export const ENDPOINTS: EndpointCase[] = [
  { route: 'GET /api/user/detail', call: (ctx, t) => get(ctx, '/api/user/detail', t?.jwt), expected: { anonymous: 401, default: 200 } },
  { route: 'GET /api/account/users', call: (ctx, t) => get(ctx, '/api/account/users', t?.jwt), expected: CUSTOMER_AREA },
  {
    route: 'GET /api/account/users-subscriptions',
    call: (ctx, t) => get(ctx, '/api/account/users-subscriptions', t?.jwt),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'GET /api/user/check-user',
    call: (ctx, t, f) => get(ctx, `/api/user/check-user?email_id=${encodeURIComponent(f.adminEmail)}`, t?.jwt),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'POST /api/user/invite',
    call: (ctx, t) =>
      post(
        ctx,
        '/api/user/invite',
        { invited_user_id: `matrix${++inviteCounter}@example.com`, invited_user_name: 'Max Matrix', role: 'ACCOUNT_ADMIN' },
        t?.jwt,
      ),
    expected: CUSTOMER_AREA,
  },
  { route: 'GET /api/account/invitations', call: (ctx, t) => get(ctx, '/api/account/invitations', t?.jwt), expected: CUSTOMER_AREA },
  { route: 'GET /api/account/audit-logs', call: (ctx, t) => get(ctx, '/api/account/audit-logs', t?.jwt), expected: CUSTOMER_AREA },
  {
    route: 'POST /api/user/invite/{invitationId}/resend',
    target: "the owner's invitation",
    call: (ctx, t, f) => post(ctx, `/api/user/invite/${f.invitationId}/resend`, {}, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'DELETE /api/user/invite/{invitationId}',
    target: "the owner's invitation",
    call: async (ctx, t, f) => send(ctx, 'DELETE', `/api/user/invite/${await pendingInvitation(ctx, f)}`, undefined, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  { route: 'GET /api/subscription/list', call: (ctx, t) => get(ctx, '/api/subscription/list', t?.jwt), expected: CUSTOMER_AREA },
  {
    route: 'GET /api/subscription/details',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, `/api/subscription/details?subscription_id=${f.subscriptionId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'POST /api/subscription/create',
    call: (ctx, t) =>
      post(
        ctx,
        '/api/subscription/create',
        { subscription_name: `Matrix ${++subscriptionCounter}`, remark: '', subscription_type: 'PREPAID' },
        t?.jwt,
      ),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'GET /api/credit/view/credit-transactions/{id}',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, `/api/credit/view/credit-transactions/${f.subscriptionId}?page=0&size=20`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'POST /api/credit/purchase',
    target: "the owner's subscription",
    call: (ctx, t, f) =>
      post(
        ctx,
        '/api/credit/purchase',
        {
          amount: '25',
          subscription_id: f.subscriptionId,
          remark: '',
          iso_currency_code: 'USD',
          event_name: 'ADD_FUNDS',
          category: 'PURCHASED',
        },
        t?.jwt,
      ),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/region-mapping',
    call: (ctx, t) => get(ctx, '/api/cluster/region-mapping?cloudProvider=AWS', t?.jwt),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'GET /api/cluster/cidr',
    call: (ctx, t) => get(ctx, '/api/cluster/cidr?deploymentRegion=us-east-1&enableDrFlag=false&cloudProvider=AWS', t?.jwt),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'GET /api/cluster/check-kumo-ea-version',
    call: (ctx, t) => get(ctx, '/api/cluster/check-kumo-ea-version', t?.jwt),
    expected: CUSTOMER_AREA,
  },
  { route: 'GET /api/cluster/kumo-versions', call: (ctx, t) => get(ctx, '/api/cluster/kumo-versions', t?.jwt), expected: CUSTOMER_AREA },
  { route: 'GET /api/cluster/view', call: (ctx, t) => get(ctx, '/api/cluster/view', t?.jwt), expected: CUSTOMER_AREA },
  {
    route: 'GET /api/cluster/view',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, `/api/cluster/view?subscriptionId=${f.subscriptionId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'POST /api/cluster/create',
    target: "the owner's subscription",
    call: (ctx, t, f) => post(ctx, '/api/cluster/create', matrixClusterBody(f.subscriptionId), t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/deployment-details/status/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/deployment-details/status/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/details/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/details/${f.clusterId}?detail=DEPLOYMENT`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/get-audit-logs/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/get-audit-logs/${f.clusterId}?page=0&size=20`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/start/{deploymentId}',
    target: "the owner's deploying cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/start/${f.clusterId}`, t?.jwt),
    expected: OWNERS_BUSY_CLUSTER,
  },
  {
    route: 'POST /api/cluster/start/{deploymentId}',
    target: "the owner's deploying cluster",
    call: (ctx, t, f) => send(ctx, 'POST', `/api/cluster/start/${f.clusterId}`, undefined, t?.jwt),
    expected: OWNERS_BUSY_CLUSTER,
  },
  {
    route: 'GET /api/cluster/stop/{deploymentId}',
    target: "the owner's deploying cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/stop/${f.clusterId}`, t?.jwt),
    expected: OWNERS_BUSY_CLUSTER,
  },
  {
    route: 'POST /api/cluster/stop/{deploymentId}',
    target: "the owner's deploying cluster",
    call: (ctx, t, f) => send(ctx, 'POST', `/api/cluster/stop/${f.clusterId}`, undefined, t?.jwt),
    expected: OWNERS_BUSY_CLUSTER,
  },
  {
    route: 'GET /api/cluster/timeline/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/timeline/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/schedule/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/schedule/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/manager-access/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/manager-access/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    // The cluster is still deploying: whoever may open its manager is told it is not online (422).
    route: 'GET /api/cluster/kumo/sso/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/kumo/sso/${f.clusterId}`, t?.jwt),
    expected: { ...OWNERS_ACCOUNT, owner: 422, admin: 422 },
  },
  {
    route: 'GET /api/subscription/consumption/overview',
    call: (ctx, t) => get(ctx, '/api/subscription/consumption/overview', t?.jwt),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'GET /api/subscription/consumption/credit-analysis/{subscriptionId}',
    target: "the owner's subscription",
    call: (ctx, t, f) =>
      get(ctx, `/api/subscription/consumption/credit-analysis/${f.subscriptionId}?startDate=2026-03-01T00:00:00`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/subscription/consumption/export/{subscriptionId}',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, `/api/subscription/consumption/export/${f.subscriptionId}?table=cost`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/subscription/consumption/rates/{subscriptionId}',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, `/api/subscription/consumption/rates/${f.subscriptionId}`, t?.jwt),
    expected: CUSTOMER_AREA,
  },
  {
    route: 'GET /api/subscription/consumption/outlook/{subscriptionId}',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, `/api/subscription/consumption/outlook/${f.subscriptionId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/consumption/credit-analysis/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/consumption/credit-analysis/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/consumption/overview/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/consumption/overview/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/consumption/export/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/consumption/export/${f.clusterId}?table=consumption`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/credit/export/credit-transactions/{subscriptionId}',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, `/api/credit/export/credit-transactions/${f.subscriptionId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/export/audit-logs/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => get(ctx, `/api/cluster/export/audit-logs/${f.clusterId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  { route: 'GET /api/user/report-url', call: (ctx, t) => get(ctx, '/api/user/report-url', t?.jwt), expected: CUSTOMER_AREA },
  { route: 'GET /api/user/report-logout', call: (ctx, t) => get(ctx, '/api/user/report-logout', t?.jwt), expected: CUSTOMER_AREA },
  {
    route: 'GET /api/cluster/consumption/hourly-rate',
    target: "the owner's subscription",
    call: (ctx, t, f) => get(ctx, `/api/cluster/consumption/hourly-rate?subscriptionId=${f.subscriptionId}&dr=true`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'PUT /api/cluster/schedule/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) => send(ctx, 'PUT', `/api/cluster/schedule/${f.clusterId}`, { enabled: false, rules: [] }, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    // Names nobody of the account: whoever may change the levels is told so (400), the rest never get that far.
    route: 'PUT /api/cluster/manager-access/{deploymentId}',
    target: "the owner's cluster",
    call: (ctx, t, f) =>
      send(
        ctx,
        'PUT',
        `/api/cluster/manager-access/${f.clusterId}`,
        { changes: [{ user_id: '00000000-0000-4000-8000-000000000000', access_level: 'LIMITED' }] },
        t?.jwt,
      ),
    expected: { ...OWNERS_ACCOUNT, owner: 400, admin: 400 },
  },
  {
    route: 'POST /api/user/operation',
    target: "delete the owner's failed cluster",
    call: (ctx, t, f) =>
      post(
        ctx,
        '/api/user/operation',
        { action_name: 'customer_delete_cluster', action_payload: { deployment_id: f.failedClusterId } },
        t?.jwt,
      ),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'GET /api/cluster/operation/status/{operationId}',
    target: "the owner's operation",
    call: (ctx, t, f) => get(ctx, `/api/cluster/operation/status/${f.operationId}`, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'POST /api/user/operation/resend-otp',
    target: "the owner's operation",
    call: (ctx, t, f) => post(ctx, '/api/user/operation/resend-otp', { operation_id: f.operationId }, t?.jwt),
    expected: OWNERS_ACCOUNT,
  },
  {
    route: 'POST /api/user/operation/authenticate',
    target: "the owner's operation, a wrong OTP",
    call: (ctx, t, f) => post(ctx, '/api/user/operation/authenticate', { operation_id: f.operationId, otp: '000000' }, t?.jwt),
    expected: { ...OWNERS_ACCOUNT, owner: 422, admin: 422 },
  },
  {
    route: 'GET /api/admin/users',
    call: (ctx, t) => get(ctx, '/api/admin/users', t?.jwt),
    expected: { SYSTEM_ADMIN: 200, SYSTEM_DEVOPS: 200, SYSTEM_SUPPORT: 200, SYSTEM_BILLING: 200, anonymous: 401, default: 403 },
  },
];

/** Called after every other row: the owner (the last caller) really removes the admin, whose calls then stop working. */
export const REMOVING_THE_ADMIN: EndpointCase = {
  route: 'PUT /api/account/delete-user',
  target: "someone else's admin",
  call: (ctx, t, f) => send(ctx, 'PUT', '/api/account/delete-user', { email_id: f.adminEmail }, t?.jwt),
  expected: { owner: 200, admin: 403, otherOwner: 404, anonymous: 401, default: 403 },
};

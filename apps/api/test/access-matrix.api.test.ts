import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ROLES } from '@kumo/contract';
import { sql } from 'drizzle-orm';
import { createAuthRepository } from '../src/modules/auth/auth.repository.js';
import { databaseKinds } from './support/databases.js';
import { get, logIn, post, send, signUp, startTestApp, tokensOf, type TestContext, type Tokens } from './support/harness.js';
import { TEST_CARDS, openCheckout, paymentStatus, payWith } from './support/checkout.js';
import {
  ENDPOINTS,
  REMOVING_THE_ADMIN,
  caseName,
  matrixClusterBody,
  pendingInvitation,
  type Caller,
  type Fixture,
} from './support/access-matrix.js';
import { PLATFORM_ENDPOINTS, matrixWebhookBody } from './support/access-matrix-platform.js';
import { CLUSTER_TOOL_ENDPOINTS } from './support/access-matrix-cluster-tools.js';

/** Calls every endpoint of support/access-matrix*.ts as every kind of caller and checks the status the roles allow. */
const kinds = await databaseKinds();

/** The rows in the order they run: removing the admin comes last, since the admin's calls stop working after it. */
const ROWS = [...ENDPOINTS, ...CLUSTER_TOOL_ENDPOINTS, ...PLATFORM_ENDPOINTS, REMOVING_THE_ADMIN];

/**
 * Routes of the OpenAPI document that have no row, on purpose. Anything else the app serves without a row fails
 * the test below, so a new customer route cannot go unchecked.
 */
const STAFF_AREA = '/api/admin/'; // every route under it: admin-access-matrix.api.test.ts walks them as each role
const LEFT_OUT = new Set([
  // Public sign-in: before there is a caller (auth, invitation and staff single sign-on tests).
  'POST /api/user/login',
  'POST /api/user/register',
  'POST /api/user/signup',
  'POST /api/user/resend-otp',
  'POST /api/user/authenticate',
  'POST /api/user/refresh-token',
  'POST /api/user/invite/accept',
  'GET /oauth2/authorization/azure',
  'GET /oauth2/callback/azure',
  // They end the caller's session, which the rows after them still use; any signed-in person may call them (auth tests).
  'POST /api/user/logout',
  'POST /api/user/switch-account',
  // The printable report: its session is the signed token in its address, from GET /api/user/report-url (a row).
  'GET /reports/subscription',
  // The payment provider's signed notifications (mounted with Stripe only).
  'POST /api/credit/webhook/stripe',
  // Load-balancer probes and development tools.
  'GET /healthz',
  'GET /readyz',
  'GET /dev/mailbox.json',
]);

describe.each(kinds)('who may call what, on %s', (kind) => {
  let ctx: TestContext;
  const callers = new Map<Caller, Tokens | undefined>();
  let fixture: Fixture;

  beforeAll(async () => {
    // Webhooks of the matrix point at 127.0.0.1, where nothing listens: a test event is only queued, never sent.
    ctx = await startTestApp(kind, { webhookAllowPrivate: true });
    const stamp = Date.now();
    const owner = await signUp(ctx, `matrix.owner.${stamp}@example.com`, 'Mona Owner');
    const adminEmail = `matrix.admin.${stamp}@example.com`;
    await post(ctx, '/api/user/invite', { invited_user_id: adminEmail, invited_user_name: 'Adam Admin', role: 'ACCOUNT_ADMIN' }, owner.jwt);
    const mail = (await ctx.services.mail.listRecent(20)).find((row) => row.toAddress === adminEmail)!;
    const token = mail.textBody.match(/token=([\w-]+)/)![1];
    const admin = tokensOf(await post(ctx, '/api/user/invite/accept', { token }));

    // A Cluster Member of the same account, signed in to it.
    const memberEmail = `matrix.member.${stamp}@example.com`;
    const memberOwn = await signUp(ctx, memberEmail, 'Mel Member');
    const ownerDetail = (await get(ctx, '/api/user/detail', owner.jwt)).json();
    const memberDetail = (await get(ctx, '/api/user/detail', memberOwn.jwt)).json();
    await ctx.services.accounts.addMember(ownerDetail.accounts[0].account_id, memberDetail.userId, 'CLUSTER_MEMBER', ctx.clock.now());
    const member = tokensOf(
      await send(ctx, 'POST', '/api/user/switch-account', { switching_account_id: ownerDetail.accounts[0].account_id }, memberOwn.jwt, {
        'refresh-token': memberOwn.refresh,
      }),
    );

    callers.set('anonymous', undefined);
    callers.set('owner', owner);
    callers.set('admin', admin);
    callers.set('member', member);
    callers.set('otherOwner', await signUp(ctx, `matrix.other.${stamp}@example.com`, 'Otto Other'));
    const repository = createAuthRepository(ctx.database.db);
    for (const role of SYSTEM_ROLES) {
      const email = `matrix.${role.toLowerCase()}.${stamp}@kumo.test`;
      await repository.insertUser({ email, name: 'Stan Staff', systemRole: role, createdAt: ctx.clock.now() });
      callers.set(role, await logIn(ctx, email));
    }
    const created = await post(
      ctx,
      '/api/subscription/create',
      { subscription_name: 'Matrix Main', remark: '', subscription_type: 'PREPAID' },
      owner.jwt,
    );
    fixture = {
      adminEmail,
      subscriptionId: created.json().subscription_id,
      ownerJwt: owner.jwt,
      invitationId: '',
      clusterId: '',
      failedClusterId: '',
      operationId: '',
      webhookId: '',
      pendingSessionId: '',
      paidTransactionId: '',
    };
    fixture.invitationId = await pendingInvitation(ctx, fixture);
    fixture.clusterId = (await post(ctx, '/api/cluster/create', matrixClusterBody(fixture.subscriptionId), owner.jwt)).json().deployment_id;
    fixture.failedClusterId = (
      await post(ctx, '/api/cluster/create', matrixClusterBody(fixture.subscriptionId), owner.jwt)
    ).json().deployment_id;
    await ctx.database.db.execute(sql`update clusters set status = 'FAILED' where id = ${fixture.failedClusterId}`);
    fixture.operationId = (
      await post(
        ctx,
        '/api/user/operation',
        { action_name: 'customer_delete_cluster', action_payload: { deployment_id: fixture.failedClusterId } },
        owner.jwt,
      )
    ).json().operation_id;
    fixture.webhookId = (await post(ctx, '/api/account/webhooks', matrixWebhookBody(), owner.jwt)).json().webhook_id;
    fixture.pendingSessionId = (await openCheckout(ctx, owner.jwt, fixture.subscriptionId, 25)).sessionId;
    const paid = await openCheckout(ctx, owner.jwt, fixture.subscriptionId, 30);
    await payWith(ctx, paid.path, TEST_CARDS.success);
    fixture.paidTransactionId = (await paymentStatus(ctx, owner.jwt, fixture.subscriptionId, paid.sessionId)).json().transaction_id;
  });
  afterAll(() => ctx.close());

  it('has a row for every route of the OpenAPI document it serves, but those left out on purpose', async () => {
    const document = (await get(ctx, '/api/openapi.json')).json<{ paths: Record<string, Record<string, unknown>> }>();
    const served = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const covered = new Set(ROWS.map((row) => row.route));
    // A route reads 'METHOD /path': the staff area's paths start right after the space.
    const staffArea = (route: string) => route.includes(` ${STAFF_AREA}`);
    expect(served.filter((route) => !covered.has(route) && !LEFT_OUT.has(route) && !staffArea(route))).toEqual([]);
    // A row names a route the app serves, so a mistyped one cannot count as covering it.
    expect([...covered].filter((route) => !served.includes(route))).toEqual([]);
  });

  const CALLERS: Caller[] = ['anonymous', 'member', 'admin', 'otherOwner', ...SYSTEM_ROLES, 'owner'];
  // '%s' prints the whole name ('$name' would cut it short).
  describe.each(ROWS.map((row) => [caseName(row), row] as const))('%s', (_name, endpoint) => {
    it.each(CALLERS)('as %s', async (caller) => {
      const response = await endpoint.call(ctx, callers.get(caller), fixture);
      const expected = endpoint.expected[caller] ?? endpoint.expected.default;
      expect(response.statusCode, response.body).toBe(expected);
      if (expected >= 400) expect(response.json().errorDetails.error_code).toBeTruthy();
    });
  });

  it("another account's owner sees none of the first account's people", async () => {
    const seen = (await get(ctx, '/api/account/users', callers.get('otherOwner')!.jwt)).json();
    expect(seen).toHaveLength(1);
    expect(seen[0].user_name).toBe('Otto Other');
  });

  it('staff receive the permission map of their role', async () => {
    for (const role of SYSTEM_ROLES) {
      const detail = (await get(ctx, '/api/user/detail', callers.get(role)!.jwt)).json();
      expect(detail.role).toBe(role);
      expect(detail.permissions.customer_list).toBe('ENABLED');
    }
    const support = (await get(ctx, '/api/user/detail', callers.get('SYSTEM_SUPPORT')!.jwt)).json();
    expect(support.permissions.customer_change_rates).toBe('DISABLED');
    expect((await get(ctx, '/api/user/detail', callers.get('owner')!.jwt)).json().permissions).toBeUndefined();
  });
});

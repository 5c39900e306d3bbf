import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { ADMIN_MESSAGES, MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { clusterBody } from '../../../test/support/clusters.js';
import { fourEyesSteps } from '../../../test/support/four-eyes.js';
import { errorCode, get, latestOtp, post, startTestApp, tokensOf, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

/**
 * The calls of spec section 7 under their own names: each is the four-eyes request of POST /api/admin/action with a
 * fixed action_name, so it is refused, approved and recorded the same way. Then withdrawing a request, and what the
 * Approvals page reads of waiting requests (in words).
 */
describe.each(kinds)('spec-named admin calls and waiting requests on %s', (kind) => {
  let ctx: TestContext;
  const { emails, staff, customer, complete, transactions, signInStaff } = fourEyesSteps(() => ctx);

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    await signInStaff();
  });
  afterAll(() => ctx.close());

  it('POST /api/user/signup starts a sign-up exactly as /api/user/register does', async () => {
    const email = `spec.signup.${Date.now()}@example.com`;
    const started = await post(ctx, '/api/user/signup', { email_id: email, user_name: 'Sigrid Signup', auth_provider: 'EMAIL_OTP_AUTH' });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ otp_sent: true });
    const done = await post(ctx, '/api/user/authenticate', {
      email_id: email,
      otp: await latestOtp(ctx, email),
      user_name: 'Sigrid Signup',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().sign_up).toBe(true);
    expect(tokensOf(done).jwt).toBeTruthy();
    // The same rules: an e-mail already registered is refused by both names.
    const again = await post(ctx, '/api/user/signup', { email_id: email, user_name: 'Sigrid Signup', auth_provider: 'EMAIL_OTP_AUTH' });
    expect(errorCode(again)).toBe('USER_ALREADY_EXISTS');
  });

  it('/api/admin/add-amount asks for add_funds: approved by an approver OTP, refused to a role without the key', async () => {
    const c = await customer();
    const body = { user_id: c.userId, action_payload: { amount: 40, subscription_id: c.subscriptionId, remark: 'By its own name' } };
    expect((await post(ctx, '/api/admin/add-amount', body, staff.support.jwt)).statusCode).toBe(403);
    const tooMuch = await post(
      ctx,
      '/api/admin/add-amount',
      { ...body, action_payload: { ...body.action_payload, amount: 1_000_000 } },
      staff.billing.jwt,
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(JSON.stringify(tooMuch.json().field_errors)).toContain(MESSAGES.addFundsMaximum);

    const asked = await post(ctx, '/api/admin/add-amount', body, staff.billing.jwt);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(ADMIN_MESSAGES.approverOtpSent);
    const done = await complete(asked.json().operation_id, staff.billing);
    expect(done.json()).toMatchObject({ action_name: 'add_funds', status: 'APPROVED' });
    expect((await transactions(c)).find((row) => row.remark === 'By its own name')).toMatchObject({ amount: 40 });
  });

  it('/api/admin/update-account-metrics asks for change_overdue_limit and /api/admin/update-service-rate for change_service_rate', async () => {
    const c = await customer();
    const limit = await post(
      ctx,
      '/api/admin/update-account-metrics',
      { user_id: c.userId, action_payload: { outstanding_limit: 321.5, user_id: c.userId } },
      staff.billing.jwt,
    );
    expect(limit.statusCode).toBe(200);
    expect((await complete(limit.json().operation_id, staff.billing)).json().action_name).toBe('change_overdue_limit');
    expect((await get(ctx, `/api/admin/users/${c.userId}`, staff.billing.jwt)).json().outstanding_limit).toBe(321.5);

    // A past effective date is a field error, as through /api/admin/action.
    const past = await post(
      ctx,
      '/api/admin/update-service-rate',
      {
        user_id: c.userId,
        action_payload: {
          user_id: c.userId,
          effective_date: '2000-01-01',
          updated_service_rates: [{ dimension: 'BI_SERVER', rate: '0.07' }],
        },
      },
      staff.billing.jwt,
    );
    expect(past.statusCode).toBe(400);
    expect(past.json().field_errors).toEqual({ effective_date: ADMIN_MESSAGES.effectiveDateInvalid });
    const rates = await post(
      ctx,
      '/api/admin/update-service-rate',
      { user_id: c.userId, action_payload: { user_id: c.userId, updated_service_rates: [{ dimension: 'BI_SERVER', rate: '0.0725' }] } },
      staff.billing.jwt,
    );
    expect(rates.statusCode).toBe(200);
    expect((await complete(rates.json().operation_id, staff.billing)).json().message).toBe(ADMIN_MESSAGES.ratesChanged);
    const card = (await get(ctx, `/api/admin/current-resource-rate/${c.userId}`, staff.billing.jwt)).json();
    expect(card.service_rate.BI_SERVER).toBe(0.0725);
  });

  it('GET /api/admin/delete-cluster/{id}?userId asks for delete_cluster under the same rules', async () => {
    const c = await customer();
    const created = await post(
      ctx,
      '/api/cluster/create',
      clusterBody(c.subscriptionId, { cluster_name: `Spec_Delete_${c.serial}`, description: '', cidr: '10.61.0.0/16' }),
      c.tokens.jwt,
    );
    const deploymentId = created.json().deployment_id as string;
    const url = `/api/admin/delete-cluster/${deploymentId}?userId=${c.userId}`;
    expect((await get(ctx, url, staff.billing.jwt)).statusCode).toBe(403);
    // Deploying: not deletable yet, as through /api/admin/action.
    expect((await get(ctx, url, staff.devops.jwt)).statusCode).toBe(409);
    await ctx.database.db.execute(sql`update clusters set status = 'FAILED' where id = ${deploymentId}`);
    const asked = await get(ctx, url, staff.devops.jwt);
    expect(asked.statusCode).toBe(200);
    const done = await complete(asked.json().operation_id, staff.devops, await latestOtp(ctx, emails.adminB));
    expect(done.json()).toMatchObject({ action_name: 'delete_cluster', status: 'APPROVED' });
  });

  it('says in words what waits, lists the requester own waiting requests, and lets the requester cancel one', async () => {
    const c = await customer();
    const asked = await post(
      ctx,
      '/api/admin/add-amount',
      { user_id: c.userId, action_payload: { amount: 1234.5, subscription_id: c.subscriptionId, remark: 'Goodwill' } },
      staff.billing.jwt,
    );
    const operationId = asked.json().operation_id as string;
    const otp = await latestOtp(ctx, emails.adminA);

    const waiting = (await get(ctx, '/api/admin/approvals', staff.adminA.jwt)).json<Record<string, unknown>[]>();
    const mine = waiting.find((row) => row.operation_id === operationId);
    expect(mine).toMatchObject({ customer_name: 'Cora Customer', customer_email: c.email, requested_by_email: emails.billing });
    expect(mine?.details).toEqual([
      { label: 'Subscription', value: `Main${c.serial}` },
      { label: 'Amount', value: '$1,234.50 (One Thousand Two Hundred Thirty Four USD and Fifty Cents)' },
      { label: 'Category', value: 'Refund Maintenance Cost' },
      { label: 'Remark', value: 'Goodwill' },
    ]);

    const asker = (await get(ctx, '/api/admin/action/mine', staff.billing.jwt)).json<{ operation_id: string }[]>();
    expect(asker.map((row) => row.operation_id)).toContain(operationId);
    expect((await get(ctx, '/api/admin/action/mine', staff.adminA.jwt)).json()).toEqual([]);

    // Only the requester may cancel; then no OTP works and it waits no more.
    expect((await post(ctx, '/api/admin/action/cancel', { operation_id: operationId }, staff.adminA.jwt)).statusCode).toBe(404);
    const cancelled = await post(ctx, '/api/admin/action/cancel', { operation_id: operationId }, staff.billing.jwt);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().message).toBe(ADMIN_MESSAGES.requestCancelled);
    const late = await complete(operationId, staff.billing, otp);
    expect(late.statusCode).toBe(409);
    expect(errorCode(late)).toBe('OPERATION_CANCELLED');
    expect((await post(ctx, '/api/admin/action/resend-otp', { operation_id: operationId }, staff.billing.jwt)).statusCode).toBe(409);
    expect(
      (await get(ctx, '/api/admin/approvals', staff.adminA.jwt))
        .json()
        .some((row: { operation_id: string }) => row.operation_id === operationId),
    ).toBe(false);
    expect((await get(ctx, '/api/admin/action/mine', staff.billing.jwt)).json()).toEqual([]);
    expect((await post(ctx, '/api/admin/action/cancel', { operation_id: randomUUID() }, staff.billing.jwt)).statusCode).toBe(404);
    expect((await transactions(c)).some((row) => row.remark === 'Goodwill')).toBe(false);
  });
});

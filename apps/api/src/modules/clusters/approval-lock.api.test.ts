import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletionOtpSentMessage } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { errorCode, latestOtp, logIn, post, signUp, startTestApp, tokensOf, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();
let counter = 0;
const freshEmail = (who: string) => `${who}${++counter}.${Date.now()}@example.com`;

// An account admin asks to delete a cluster; the owner's OTP approves it. The admin's wrong guesses lock the admin,
// never the owner's correct approval nor the owner's sign-in.
describe.each(kinds)('cluster deletion approval lock on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 60 } });
  });
  afterAll(() => ctx.close());

  async function invitedAdmin(ownerJwt: string) {
    const email = freshEmail('admin');
    await post(ctx, '/api/user/invite', { invited_user_id: email, invited_user_name: 'Ada Admin', role: 'ACCOUNT_ADMIN' }, ownerJwt);
    const mail = (await ctx.services.mail.listRecent(50)).find((row) => row.toAddress === email);
    const token = mail?.textBody.match(/\/invite\/accept\?token=([\w-]+)/)?.[1];
    const accepted = await post(ctx, '/api/user/invite/accept', { token });
    expect(accepted.statusCode).toBe(200);
    return tokensOf(accepted).jwt;
  }

  it("an admin's wrong OTPs lock the admin; the owner's right OTP still approves, and the owner still signs in", async () => {
    const ownerEmail = freshEmail('owner');
    const owner = await signUp(ctx, ownerEmail, 'Olive Owner');
    const subscriptionId = await createSubscription(ctx, owner.jwt, 'Approvals');
    const created = await post(
      ctx,
      '/api/cluster/create',
      {
        subscription_id: subscriptionId,
        cluster_name: 'Guarded',
        description: 'Approval lock',
        cloud_provider: 'AWS',
        enable_dr_flag: false,
        cidr: '10.0.0.0/16',
        region: 'us-east-1',
        backup_region: null,
        password: 'Sup3r#Secret-pw',
        kumo_version: '2026.10.1',
      },
      owner.jwt,
    );
    expect(created.statusCode, created.body).toBe(200);
    const id = String(created.json().deployment_id);
    await ctx.services.clusters.reconcile(id);
    ctx.clock.advance(61_000);
    await ctx.services.clusters.reconcile(id);

    const admin = await invitedAdmin(owner.jwt);
    const asked = await post(
      ctx,
      '/api/user/operation',
      { action_name: 'customer_delete_cluster', action_payload: { deployment_id: id } },
      admin,
    );
    expect(asked.statusCode, asked.body).toBe(200);
    // An admin asked: the OTP went to the owner, named by her e-mail.
    expect(asked.json()).toMatchObject({
      message: deletionOtpSentMessage(ownerEmail, false),
      approver_email: ownerEmail,
      sent_to_you: false,
    });
    const operationId = String(asked.json().operation_id);
    const right = await latestOtp(ctx, ownerEmail);
    const wrong = right === '000000' ? '111111' : '000000';
    const typed = (jwt: string, otp: string) => post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp }, jwt);

    expect(errorCode(await typed(admin, wrong))).toBe('OTP_INVALID');
    expect(errorCode(await typed(admin, wrong))).toBe('OTP_INVALID');
    expect(errorCode(await typed(admin, wrong))).toBe('OTP_LOCKED');
    expect(errorCode(await typed(admin, right))).toBe('OTP_LOCKED');

    const approved = await typed(owner.jwt, right);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('APPROVED');
    await logIn(ctx, ownerEmail);
  });
});

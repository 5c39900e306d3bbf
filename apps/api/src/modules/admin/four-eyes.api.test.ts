import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN_MESSAGES, OTP } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { fourEyesSteps } from '../../../test/support/four-eyes.js';
import { errorCode, get, latestOtp, post, startTestApp, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

describe.each(kinds)('four-eyes admin actions on %s', (kind) => {
  let ctx: TestContext;
  const { emails, staff, customer, addFunds, ask, complete, mailsTo, transactions, signInStaff } = fourEyesSteps(() => ctx);

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    await signInStaff();
  });
  afterAll(() => ctx.close());

  it('adds funds once an approver OTP is typed: OTPs to the approvers only, the customer sees the funds with the remark', async () => {
    const c = await customer();
    const billingMailsBefore = (await mailsTo(emails.billing)).length;
    const asked = await ask(addFunds(c), staff.billing);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(ADMIN_MESSAGES.approverOtpSent);
    const operationId = asked.json().operation_id as string;

    // Both SYSTEM_ADMINs received their own OTP; the requester received none.
    expect((await mailsTo(emails.billing)).length).toBe(billingMailsBefore);
    const otpA = await latestOtp(ctx, emails.adminA);
    const otpB = await latestOtp(ctx, emails.adminB);
    expect(otpA).not.toBe(otpB);
    const mailA = (await mailsTo(emails.adminA))[0]!;
    expect(mailA.textBody).toContain('$250.00');
    expect(mailA.textBody).toContain(c.email);

    // The approver sees what they approve before giving the OTP.
    const waiting = (await get(ctx, '/api/admin/approvals', staff.adminA.jwt)).json<
      { operation_id: string; action_payload: Record<string, unknown> }[]
    >();
    const mine = waiting.find((row) => row.operation_id === operationId)!;
    expect(mine.action_payload).toMatchObject({
      amount: 250,
      remark: 'Outage on 3 March',
      category: 'REFUND_MAINTENANCE_COST',
      mode: 'FREE',
    });
    expect((await get(ctx, '/api/admin/approvals', staff.billing.jwt)).json()).toEqual([]);

    // Only the requester completes it.
    expect((await complete(operationId, staff.adminA, otpA)).statusCode).toBe(404);

    const done = await complete(operationId, staff.billing, otpB);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({
      operation_id: operationId,
      status: 'APPROVED',
      action_name: 'add_funds',
      message: ADMIN_MESSAGES.fundsAdded,
    });

    const rows = await transactions(c);
    expect(rows.find((row) => row.category === 'REFUND_MAINTENANCE_COST')).toMatchObject({ remark: 'Outage on 3 March', amount: 250 });
    const recorded = (
      await ctx.database.db.execute(
        sql`select approved_by_email, outcome, requested_by_user_id from admin_operations where id = ${operationId}`,
      )
    ).rows[0] as Record<string, string>;
    expect(recorded.approved_by_email).toBe(emails.adminB);
    expect(recorded.outcome).toContain('$250.00');
    expect(
      (await get(ctx, '/api/admin/approvals', staff.adminA.jwt))
        .json()
        .some((row: { operation_id: string }) => row.operation_id === operationId),
    ).toBe(false);

    // Replayed: single use.
    const replay = await complete(operationId, staff.billing, otpB);
    expect(replay.statusCode).toBe(409);
    expect(errorCode(replay)).toBe('OPERATION_ALREADY_USED');
    expect((await transactions(c)).filter((row) => row.category === 'REFUND_MAINTENANCE_COST')).toHaveLength(1);

    // The owner reads it in the bell, once.
    const bell = (await get(ctx, '/api/user/notifications', c.tokens.jwt)).json();
    expect(bell.unread).toBe(1);
    expect(bell.content).toEqual([
      expect.objectContaining({
        kind: 'FUNDS_ADDED',
        title: `$250.00 added to Main${c.serial}`,
        link: `/subscriptions/${c.subscriptionId}`,
        read_at: null,
      }),
    ]);
  });

  it("an approver's own request goes to the other approver only", async () => {
    const c = await customer();
    const aBefore = (await mailsTo(emails.adminA)).length;
    const asked = await ask(addFunds(c, 10), staff.adminA);
    expect(asked.statusCode).toBe(200);
    expect((await mailsTo(emails.adminA)).length).toBe(aBefore);
    const otpB = await latestOtp(ctx, emails.adminB);
    const done = await complete(asked.json().operation_id, staff.adminA, otpB);
    expect(done.statusCode).toBe(200);
  });

  it('refuses a wrong OTP, then an expired operation; resend gives new OTPs', async () => {
    const c = await customer();
    const asked = await ask(addFunds(c, 20), staff.billing);
    const operationId = asked.json().operation_id as string;
    const otp = await latestOtp(ctx, emails.adminA);
    const wrong = String((Number(otp) + 1) % 1_000_000).padStart(6, '0');
    const refused = await complete(operationId, staff.billing, wrong);
    expect(refused.statusCode).toBe(422);
    expect(errorCode(refused)).toBe('OTP_INVALID');

    const resent = await post(ctx, '/api/admin/action/resend-otp', { operation_id: operationId }, staff.billing.jwt);
    expect(resent.statusCode).toBe(200);
    const fresh = await latestOtp(ctx, emails.adminA);
    ctx.clock.advance((OTP.validMinutes + 1) * MINUTE);
    const expired = await complete(operationId, staff.billing, fresh);
    expect(expired.statusCode).toBe(422);
    expect(errorCode(expired)).toBe('OPERATION_EXPIRED');
    expect((await transactions(c)).some((row) => row.category === 'REFUND_MAINTENANCE_COST')).toBe(false);
  });

  it('refuses an operation whose payload changed after it was asked for', async () => {
    const c = await customer();
    const asked = await ask(addFunds(c, 30), staff.billing);
    const operationId = asked.json().operation_id as string;
    await ctx.database.db.execute(
      sql`update admin_operations set payload = jsonb_set(payload, '{amount}', '999999') where id = ${operationId}`,
    );
    const otp = await latestOtp(ctx, emails.adminA);
    const refused = await complete(operationId, staff.billing, otp);
    expect(refused.statusCode).toBe(409);
    expect(errorCode(refused)).toBe('OPERATION_TAMPERED');
    expect((await transactions(c)).some((row) => row.category === 'REFUND_MAINTENANCE_COST')).toBe(false);
  });

  it('changes the overdue limit the customer is held to', async () => {
    const c = await customer();
    const asked = await ask(
      { action_name: 'change_overdue_limit', user_id: c.userId, action_payload: { outstanding_limit: 1500.5, user_id: c.userId } },
      staff.billing,
    );
    expect(asked.statusCode).toBe(200);
    const done = await complete(asked.json().operation_id, staff.billing);
    expect(done.statusCode).toBe(200);
    expect(await ctx.services.ledger.overdueLimit(c.accountId)).toBe(150_050);

    const tooHigh = await ask(
      { action_name: 'change_overdue_limit', user_id: c.userId, action_payload: { outstanding_limit: 1_000_000, user_id: c.userId } },
      staff.billing,
    );
    expect(tooHigh.statusCode).toBe(400);
  });
});

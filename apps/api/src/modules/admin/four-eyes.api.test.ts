import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN_MESSAGES, OTP } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import {
  errorCode,
  get,
  latestOtp,
  logIn,
  post,
  signUp,
  startTestApp,
  type TestContext,
  type Tokens,
} from '../../../test/support/harness.js';

const kinds = await databaseKinds();

/** Staff are made directly in the database, as operators do (there is no sign-up for staff). */
async function insertStaff(ctx: TestContext, email: string, name: string, role: string): Promise<void> {
  await ctx.database.db.execute(
    sql`insert into users (email, name, system_role, created_at) values (${email}, ${name}, ${role}, ${ctx.clock.now().toISOString()})`,
  );
}
let counter = 0;

describe.each(kinds)('four-eyes admin actions on %s', (kind) => {
  let ctx: TestContext;
  const stamp = Date.now();
  const emails = {
    adminA: `four.admin-a.${stamp}@kumo.test`,
    adminB: `four.admin-b.${stamp}@kumo.test`,
    billing: `four.billing.${stamp}@kumo.test`,
    devops: `four.devops.${stamp}@kumo.test`,
    support: `four.support.${stamp}@kumo.test`,
  };
  const staff: Record<keyof typeof emails, Tokens> = {} as never;

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    const roles = {
      adminA: 'SYSTEM_ADMIN',
      adminB: 'SYSTEM_ADMIN',
      billing: 'SYSTEM_BILLING',
      devops: 'SYSTEM_DEVOPS',
      support: 'SYSTEM_SUPPORT',
    };
    for (const [who, email] of Object.entries(emails) as [keyof typeof emails, string][]) {
      await insertStaff(ctx, email, 'Stan Staff', roles[who]);
      staff[who] = await logIn(ctx, email);
    }
  });
  afterAll(() => ctx.close());

  /** A customer with a subscription (its $500 sign-up credits). */
  async function customer() {
    const email = `four.customer${++counter}.${stamp}@example.com`;
    const tokens = await signUp(ctx, email, 'Cora Customer');
    const subscriptionId = await createSubscription(ctx, tokens.jwt, `Main${counter}`);
    const userId = (await get(ctx, '/api/user/detail', tokens.jwt)).json().userId as string;
    const accountId = (await get(ctx, '/api/user/detail', tokens.jwt)).json().accounts[0].account_id as string;
    return { email, tokens, subscriptionId, userId, accountId };
  }

  const addFunds = (c: { userId: string; subscriptionId: string }, amount = 250, remark = 'Outage on 3 March') => ({
    action_name: 'add_funds',
    user_id: c.userId,
    action_payload: {
      amount,
      event_name: 'ADMIN_ADD_FUNDS',
      iso_currency_code: 'USD',
      mode: 'FREE',
      remark,
      subscription_id: c.subscriptionId,
    },
  });

  /** Staff member `by` asks for an action; it then waits for an approver's OTP. */
  const ask = (action: Record<string, unknown>, by: Tokens) => post(ctx, '/api/admin/action', action, by.jwt);
  /** `by` completes an operation with an OTP: the one last mailed to approver A unless given. */
  const complete = async (operationId: string, by: Tokens, otp?: string) =>
    post(ctx, '/api/admin/action/authenticate', { operation_id: operationId, otp: otp ?? (await latestOtp(ctx, emails.adminA)) }, by.jwt);

  /** Mails (to anyone) sent after the given count. */
  const mailsTo = async (email: string) => (await ctx.services.mail.listRecent(500)).filter((row) => row.toAddress === email);
  const transactions = async (c: { tokens: Tokens; subscriptionId: string }) =>
    (await get(ctx, `/api/credit/view/credit-transactions/${c.subscriptionId}?page=0&size=20`, c.tokens.jwt)).json().content as {
      category: string;
      remark: string;
      amount: number;
    }[];

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

  it('deletes a cluster through the clusters module; its audit log says staff did it', async () => {
    const c = await customer();
    const created = await post(
      ctx,
      '/api/cluster/create',
      {
        subscription_id: c.subscriptionId,
        cluster_name: `Staff_Delete_${counter}`,
        description: '',
        cloud_provider: 'AWS',
        enable_dr_flag: false,
        cidr: '10.60.0.0/16',
        region: 'us-east-1',
        backup_region: null,
        password: 'Sup3r#Secret-pw',
        kumo_version: '2026.10.1',
      },
      c.tokens.jwt,
    );
    const deploymentId = created.json().deployment_id as string;
    const action = { action_name: 'delete_cluster', user_id: c.userId, action_payload: { deployment_id: deploymentId } };
    // Deploying: not deletable yet.
    expect((await ask(action, staff.devops)).statusCode).toBe(409);
    await ctx.database.db.execute(sql`update clusters set status = 'FAILED' where id = ${deploymentId}`);
    const asked = await ask(action, staff.devops);
    expect(asked.statusCode).toBe(200);
    const done = await complete(asked.json().operation_id, staff.devops, await latestOtp(ctx, emails.adminB));
    expect(done.statusCode).toBe(200);
    const status = (await get(ctx, `/api/cluster/deployment-details/status/${deploymentId}`, c.tokens.jwt)).json().status;
    expect(['DELETING', 'DELETE_IN_PROGRESS', 'DELETED']).toContain(status);
    const audit = (await get(ctx, `/api/cluster/get-audit-logs/${deploymentId}?page=0&size=20`, c.tokens.jwt)).json();
    expect(JSON.stringify(audit)).toContain('Kumo Cloud staff');
  });

  it('changes service rates from their effective date; errors per field', async () => {
    const c = await customer();
    const rateCard = async () =>
      (await get(ctx, `/api/subscription/consumption/rates/${c.subscriptionId}`, c.tokens.jwt)).json<{
        service_rate: Record<string, number>;
        free_units: Record<string, number>;
      }>();
    const before = await rateCard();
    const bad = await ask(
      {
        action_name: 'change_service_rate',
        user_id: c.userId,
        action_payload: {
          user_id: c.userId,
          updated_service_rates: [
            { dimension: 'BI_SERVER', rate: '0' },
            { dimension: 'DATA_PROCESS', rate: '123.5' },
          ],
        },
      },
      staff.billing,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field_errors).toEqual({
      'service_rate_errors.BI_SERVER': ADMIN_MESSAGES.rateInvalid,
      'service_rate_errors.DATA_PROCESS': ADMIN_MESSAGES.rateFormat,
    });

    const past = await ask(
      {
        action_name: 'change_service_rate',
        user_id: c.userId,
        action_payload: {
          user_id: c.userId,
          effective_date: '2000-01-01',
          updated_service_rates: [{ dimension: 'BI_SERVER', rate: '0.07' }],
        },
      },
      staff.billing,
    );
    expect(past.statusCode).toBe(400);
    expect(past.json().field_errors).toEqual({ effective_date: ADMIN_MESSAGES.effectiveDateInvalid });

    const tomorrow = new Date(ctx.clock.now().getTime() + 24 * 60 * MINUTE).toISOString().slice(0, 10);
    const asked = await ask(
      {
        action_name: 'change_service_rate',
        user_id: c.userId,
        action_payload: {
          user_id: c.userId,
          effective_date: tomorrow,
          updated_service_rates: [
            { dimension: 'BI_SERVER', rate: '0.0725' },
            { dimension: 'DATA_PROCESS', rate: 0.06, freeUnits: 75 },
          ],
        },
      },
      staff.billing,
    );
    expect(asked.statusCode).toBe(200);
    const done = await complete(asked.json().operation_id, staff.billing);
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe(ADMIN_MESSAGES.ratesChanged);
    // The owner is told before the rates apply.
    const notice = (await mailsTo(c.email)).find((mail) => mail.textBody.includes(`From ${tomorrow}`));
    expect(notice?.textBody).toContain('$0.0725 per core per hour');
    // Not before the effective date…
    expect((await rateCard()).service_rate.BI_SERVER).toBe(before.service_rate.BI_SERVER);
    ctx.clock.advance(24 * 60 * MINUTE);
    // A day later every access token has expired: everyone signs in again.
    c.tokens = await logIn(ctx, c.email);
    for (const who of Object.keys(emails) as (keyof typeof emails)[]) staff[who] = await logIn(ctx, emails[who]);
    // …and from it on.
    const after = await rateCard();
    expect(after.service_rate.BI_SERVER).toBe(0.0725);
    expect(after.service_rate.DATA_PROCESS).toBe(0.06);
    expect(after.free_units.DATA_PROCESS).toBe(75);
    const history = (await get(ctx, `/api/admin/service-rate-history/${c.userId}`, staff.support.jwt)).json();
    expect(history.content[0].start_end).toBe(`${tomorrow}_`);
  });

  it('approves a rate change and writes its rates in one transaction: a failed write leaves the operation unused', async () => {
    const c = await customer();
    const asked = await ask(
      {
        action_name: 'change_service_rate',
        user_id: c.userId,
        action_payload: { user_id: c.userId, updated_service_rates: [{ dimension: 'BI_SERVER', rate: '0.0811' }] },
      },
      staff.billing,
    );
    expect(asked.statusCode).toBe(200);
    const operationId = asked.json().operation_id as string;
    const otp = await latestOtp(ctx, emails.adminA);
    // The rates cannot be written for this account, as if the database failed half-way through the approval.
    await ctx.database.db.execute(
      sql.raw(`create function refuse_rates() returns trigger language plpgsql as $$ begin
                 if new.account_id = '${c.accountId}' then raise exception 'refused'; end if; return new; end $$;
               create trigger refuse_rates before insert on service_rates for each row execute function refuse_rates();`),
    );
    const failed = await complete(operationId, staff.billing, otp);
    expect(failed.statusCode).toBe(500);
    const [row] = (await ctx.database.db.execute(sql`select approved_at, outcome from admin_operations where id = ${operationId}`))
      .rows as { approved_at: string | null; outcome: string | null }[];
    expect(row).toEqual({ approved_at: null, outcome: null });
    expect((await mailsTo(c.email)).some((mail) => mail.textBody.includes('$0.0811'))).toBe(false);

    // Once the fault is gone, the same OTP approves it, and the rates and the owner's notice come with the approval.
    await ctx.database.db.execute(sql.raw('drop trigger refuse_rates on service_rates; drop function refuse_rates();'));
    const done = await complete(operationId, staff.billing, otp);
    expect(done.statusCode).toBe(200);
    const rates = (await get(ctx, `/api/subscription/consumption/rates/${c.subscriptionId}`, c.tokens.jwt)).json();
    expect(rates.service_rate.BI_SERVER).toBe(0.0811);
    expect((await mailsTo(c.email)).some((mail) => mail.textBody.includes('$0.0811 per core per hour'))).toBe(true);
  });

  it('enforces each action its own permission key, the customer and the approver', async () => {
    const c = await customer();
    const other = await customer();
    // Support and DevOps cannot move money.
    expect((await ask(addFunds(c), staff.support)).statusCode).toBe(403);
    expect((await ask(addFunds(c), staff.devops)).statusCode).toBe(403);
    // Another customer's subscription is not found.
    expect((await ask(addFunds({ userId: c.userId, subscriptionId: other.subscriptionId }), staff.billing)).statusCode).toBe(404);
    // Customers cannot ask at all.
    expect((await post(ctx, '/api/admin/action', addFunds(c), c.tokens.jwt)).statusCode).toBe(403);
    expect((await post(ctx, '/api/admin/action', addFunds(c))).statusCode).toBe(401);
    // Nobody left to approve: refused when asked, with a clear error.
    await ctx.database.db.execute(sql`update users set system_role = 'SYSTEM_SUPPORT' where email = ${emails.adminB}`);
    try {
      const alone = await ask(addFunds(c), staff.adminA);
      expect(alone.statusCode).toBe(422);
      expect(errorCode(alone)).toBe('NO_APPROVER');
    } finally {
      await ctx.database.db.execute(sql`update users set system_role = 'SYSTEM_ADMIN' where email = ${emails.adminB}`);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN_MESSAGES } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { clusterBody } from '../../../test/support/clusters.js';
import { fourEyesSteps } from '../../../test/support/four-eyes.js';
import { errorCode, get, latestOtp, logIn, post, startTestApp, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

describe.each(kinds)('four-eyes rates, cluster deletion and permissions on %s', (kind) => {
  let ctx: TestContext;
  const { emails, staff, customer, addFunds, ask, complete, mailsTo, signInStaff } = fourEyesSteps(() => ctx);

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    await signInStaff();
  });
  afterAll(() => ctx.close());

  it('deletes a cluster through the clusters module; its audit log says staff did it', async () => {
    const c = await customer();
    const created = await post(
      ctx,
      '/api/cluster/create',
      clusterBody(c.subscriptionId, { cluster_name: `Staff_Delete_${c.serial}`, description: '', cidr: '10.60.0.0/16' }),
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

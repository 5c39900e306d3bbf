import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { databaseKinds } from '../../../test/support/databases.js';
import { clusterBody } from '../../../test/support/clusters.js';
import { fourEyesSteps } from '../../../test/support/four-eyes.js';
import { errorCode, get, latestOtp, post, startTestApp, tokensOf, type TestContext, type Tokens } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

/** What staff change for a customer through four eyes reaches the owner's bell: one notice per approved operation. */
describe.each(kinds)('four-eyes notices to the owner on %s', (kind) => {
  let ctx: TestContext;
  const { emails, staff, customer, ask, complete, signInStaff } = fourEyesSteps(() => ctx);

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    await signInStaff();
  });
  afterAll(() => ctx.close());

  /** A customer whose account also has an admin, who must not get the owner's notices. */
  async function customerWithAdmin() {
    const c = await customer();
    const adminEmail = `four.notice-admin${c.serial}.${Date.now()}@example.com`;
    const invited = await post(
      ctx,
      '/api/user/invite',
      { invited_user_id: adminEmail, invited_user_name: 'Adam Admin', role: 'ACCOUNT_ADMIN' },
      c.tokens.jwt,
    );
    expect(invited.statusCode).toBe(200);
    const mail = (await ctx.services.mail.listRecent(50)).find((row) => row.toAddress === adminEmail)!;
    const token = mail.textBody.match(/token=([\w-]+)/)![1];
    const admin: Tokens = tokensOf(await post(ctx, '/api/user/invite/accept', { token }));
    return { ...c, admin };
  }

  const bell = async (who: Tokens) =>
    (await get(ctx, '/api/user/notifications?page=0&size=50', who.jwt)).json<{
      unread: number;
      content: { kind: string; title: string; body: string; link: string | null; read_at: string | null }[];
    }>();

  /** Every notice row the operation wrote, whoever it is for. */
  const recipientsOf = async (operationId: string) =>
    (
      (await ctx.database.db.execute(sql`select recipient_user_id from notices where dedupe_key = ${`admin-op:${operationId}`}`)).rows as {
        recipient_user_id: string;
      }[]
    ).map((row) => row.recipient_user_id);

  /** Approves the operation, then replays the approval both one after the other and two at once: one succeeds. */
  async function approveAndReplay(operationId: string, by: Tokens, otp: string) {
    const done = await complete(operationId, by, otp);
    expect(done.statusCode).toBe(200);
    const replay = await complete(operationId, by, otp);
    expect(replay.statusCode).toBe(409);
    expect(errorCode(replay)).toBe('OPERATION_ALREADY_USED');
    const together = await Promise.all([complete(operationId, by, otp), complete(operationId, by, otp)]);
    expect(together.map((response) => errorCode(response))).toEqual(['OPERATION_ALREADY_USED', 'OPERATION_ALREADY_USED']);
  }

  it('a staff rate change writes one notice, to the owner only, however often the approval is replayed', async () => {
    const c = await customerWithAdmin();
    const asked = await ask(
      {
        action_name: 'change_service_rate',
        user_id: c.userId,
        action_payload: { user_id: c.userId, updated_service_rates: [{ dimension: 'BI_SERVER', rate: '0.0833' }] },
      },
      staff.billing,
    );
    expect(asked.statusCode).toBe(200);
    const operationId = asked.json().operation_id as string;
    await approveAndReplay(operationId, staff.billing, await latestOtp(ctx, emails.adminA));

    expect(await recipientsOf(operationId)).toEqual([c.userId]);
    const owner = await bell(c.tokens);
    expect(owner.unread).toBe(1);
    expect(owner.content).toEqual([
      expect.objectContaining({
        kind: 'SERVICE_RATES_CHANGED',
        title: expect.stringMatching(/^Your service rates change on \d{4}-\d{2}-\d{2}$/),
        body: expect.stringContaining('BI Server: $0.0833 per core per hour'),
        link: '/subscriptions',
        read_at: null,
      }),
    ]);
    expect(await bell(c.admin)).toMatchObject({ unread: 0, content: [] });
  });

  it('a staff cluster deletion writes one notice, to the owner only, however often the approval is replayed', async () => {
    const c = await customerWithAdmin();
    const name = `Notice_Delete_${c.serial}`;
    const created = await post(
      ctx,
      '/api/cluster/create',
      clusterBody(c.subscriptionId, { cluster_name: name, description: '', cidr: '10.61.0.0/16' }),
      c.tokens.jwt,
    );
    expect(created.statusCode).toBe(200);
    const deploymentId = created.json().deployment_id as string;
    await ctx.database.db.execute(sql`update clusters set status = 'FAILED' where id = ${deploymentId}`);
    const asked = await ask(
      { action_name: 'delete_cluster', user_id: c.userId, action_payload: { deployment_id: deploymentId } },
      staff.devops,
    );
    expect(asked.statusCode).toBe(200);
    const operationId = asked.json().operation_id as string;
    await approveAndReplay(operationId, staff.devops, await latestOtp(ctx, emails.adminA));

    expect(await recipientsOf(operationId)).toEqual([c.userId]);
    const owner = await bell(c.tokens);
    expect(owner.unread).toBe(1);
    expect(owner.content).toEqual([
      expect.objectContaining({
        kind: 'CLUSTER_DELETED',
        title: `Cluster ${name} is being deleted`,
        link: '/clusters',
        read_at: null,
      }),
    ]);
    expect(await bell(c.admin)).toMatchObject({ unread: 0, content: [] });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { get, latestOtp, logIn, post, send, signUp, startTestApp, type TestContext, type Tokens } from '../../../test/support/harness.js';

/**
 * What staff do to a customer's account from the admin area is in the account's trail with the staff member as
 * the actor, and the customer reads it under Staff access (GET /api/account/audit-logs): the manager access
 * rights, the preview release, Open Manager, the template download and every four-eyes action.
 */
const kinds = await databaseKinds();

/** At SIM_TIME_SCALE 60 one simulated minute is one real second. */
const SIM_HOUR_MS = 61 * 1000;

interface TrailEntry {
  event: string;
  description: string;
  caused_by: string;
}

describe.each(kinds)("staff actions in the customer's Staff access trail on %s", (kind) => {
  let ctx: TestContext;
  const stamp = Date.now();
  const adaEmail = `trail.ada.${stamp}@kumo.test`;
  const bobEmail = `trail.bob.${stamp}@kumo.test`;
  const ada = `Ada Admin (${adaEmail})`;
  let adaTokens: Tokens;
  let adaId = '';
  let owner: Tokens;
  let userId = '';
  let subscriptionId = '';
  let deploymentId = '';

  /** The customer's trail as the owner reads it, oldest first. */
  async function trail(): Promise<TrailEntry[]> {
    const response = await get(ctx, '/api/account/audit-logs?size=100', owner.jwt);
    expect(response.statusCode).toBe(200);
    return (response.json().page_content.content as TrailEntry[])
      .map(({ event, description, caused_by }) => ({ event, description, caused_by }))
      .reverse();
  }

  /** Ada asks for a four-eyes action, Bob reads his OTP out, Ada completes it. */
  async function fourEyes(action: Record<string, unknown>): Promise<void> {
    const asked = await post(ctx, '/api/admin/action', { user_id: userId, ...action }, adaTokens.jwt);
    expect(asked.statusCode, asked.body).toBe(200);
    const otp = await latestOtp(ctx, bobEmail);
    const done = await post(ctx, '/api/admin/action/authenticate', { operation_id: asked.json().operation_id, otp }, adaTokens.jwt);
    expect(done.statusCode, done.body).toBe(200);
  }

  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 60 } });
    for (const [email, name] of [
      [adaEmail, 'Ada Admin'],
      [bobEmail, 'Bob Approver'],
    ])
      await ctx.database.db.execute(
        sql`insert into users (email, name, system_role, created_at) values (${email}, ${name}, 'SYSTEM_ADMIN', ${ctx.clock.now().toISOString()})`,
      );
    adaTokens = await logIn(ctx, adaEmail);
    adaId = (await get(ctx, '/api/user/detail', adaTokens.jwt)).json().userId;
    owner = await signUp(ctx, `trail.owner.${stamp}@example.com`, 'Olive Owner');
    userId = (await get(ctx, '/api/user/detail', owner.jwt)).json().userId;
    subscriptionId = await createSubscription(ctx, owner.jwt, 'Trail Main');
    const created = await post(
      ctx,
      '/api/cluster/create',
      {
        subscription_id: subscriptionId,
        cluster_name: 'trail-cluster',
        description: '',
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
    deploymentId = created.json().deployment_id;
    await ctx.services.clusters.reconcile(deploymentId);
    ctx.clock.advance(SIM_HOUR_MS);
    await ctx.services.clusters.reconcile(deploymentId);
  });
  afterAll(() => ctx.close());

  it('records the preview release, the manager access rights, the template download and Open Manager, naming the staff member', async () => {
    const before = (await trail()).length;
    expect((await send(ctx, 'POST', `/api/admin/kumo-ea-version/${userId}?action=ENABLE`, undefined, adaTokens.jwt)).statusCode).toBe(200);
    const access = await post(
      ctx,
      `/api/admin/manage-km-access/${userId}`,
      { admin_access: true, km_user_role: 'Administrator' },
      adaTokens.jwt,
    );
    expect(access.statusCode, access.body).toBe(200);
    expect((await get(ctx, `/api/admin/download-cluster-template/${deploymentId}?userId=${userId}`, adaTokens.jwt)).statusCode).toBe(200);
    const sso = await get(ctx, `/api/admin/kumo/sso/${deploymentId}?userId=${userId}`, adaTokens.jwt);
    expect(sso.statusCode, sso.body).toBe(200);

    expect((await trail()).slice(before)).toEqual([
      {
        event: 'PREVIEW_RELEASE_CHANGED',
        description: `Kumo Cloud staff member ${ada} offered the preview release.`,
        caused_by: ada,
      },
      {
        event: 'KM_ACCESS_CHANGED',
        description: `Kumo Cloud staff member ${ada} changed the Kumo Manager access rights: administrative access on, manager role Administrator.`,
        caused_by: ada,
      },
      {
        event: 'CLUSTER_TEMPLATE_DOWNLOADED',
        description: `Kumo Cloud staff member ${ada} downloaded the deployment template of cluster trail-cluster.`,
        caused_by: ada,
      },
      {
        event: 'MANAGER_OPENED',
        description: `Kumo Cloud staff member ${ada} opened the Kumo Manager of cluster trail-cluster.`,
        caused_by: ada,
      },
    ]);
  });

  it('records each four-eyes action with the staff member who asked and the approver', async () => {
    const before = (await trail()).length;
    await fourEyes({
      action_name: 'add_funds',
      action_payload: {
        amount: 125,
        event_name: 'ADMIN_ADD_FUNDS',
        iso_currency_code: 'USD',
        mode: 'FREE',
        remark: 'Outage',
        subscription_id: subscriptionId,
        category: 'SERVICE_CREDIT',
      },
    });
    await fourEyes({ action_name: 'change_overdue_limit', action_payload: { outstanding_limit: 300, user_id: userId } });
    await fourEyes({
      action_name: 'change_service_rate',
      action_payload: { user_id: userId, updated_service_rates: [{ dimension: 'BI_SERVER', rate: '0.07' }] },
    });
    await fourEyes({ action_name: 'delete_cluster', action_payload: { deployment_id: deploymentId } });

    const today = ctx.clock.now().toISOString().slice(0, 10);
    const approved = `approved by ${bobEmail}`;
    expect((await trail()).slice(before)).toEqual([
      {
        event: 'FUNDS_ADDED',
        description: `Kumo Cloud staff member ${ada} added $125.00 to subscription Trail Main (Service Credit), ${approved}.`,
        caused_by: ada,
      },
      {
        event: 'OVERDUE_LIMIT_CHANGED',
        description: `Kumo Cloud staff member ${ada} changed the overdue limit from $0.00 to $300.00, ${approved}.`,
        caused_by: ada,
      },
      {
        event: 'SERVICE_RATES_CHANGED',
        description: `Kumo Cloud staff member ${ada} changed the service rates from ${today}, ${approved}.`,
        caused_by: ada,
      },
      {
        event: 'CLUSTER_DELETION_APPROVED',
        description: `Kumo Cloud staff member ${ada} deleted cluster trail-cluster, ${approved}.`,
        caused_by: ada,
      },
    ]);
  });

  it("stores the staff member as the actor of every entry, in the customer's account only", async () => {
    const rows = (
      await ctx.database.db.execute<{ event: string; actor_user_id: string }>(
        sql`select l.event, l.actor_user_id from account_audit_logs l join accounts a on a.id = l.account_id where a.owner_user_id = ${userId}`,
      )
    ).rows;
    expect(rows).toHaveLength(8);
    expect(new Set(rows.map((row) => row.actor_user_id))).toEqual(new Set([adaId]));
    // Another customer's trail stays empty.
    const stranger = await signUp(ctx, `trail.stranger.${stamp}@example.com`, 'Stan Stranger');
    expect((await get(ctx, '/api/account/audit-logs', stranger.jwt)).json().page_content.content).toEqual([]);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ADMIN_MESSAGES, PERMISSION_KEYS } from '@kumo/contract';
import type { RouteOptions } from 'fastify';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { MANAGER_TICKET_PARAM, readManagerTicket } from '../../adapters/cloud/index.js';
import {
  TEST_TICKET_KEY,
  errorCode,
  errorMessage,
  get,
  logIn,
  post,
  send,
  signUp,
  startTestApp,
  type TestContext,
  type Tokens,
} from '../../../test/support/harness.js';
import { insertStaff } from '../../../test/support/staff.js';
import { ADMIN_ROUTE_PERMISSIONS, enforcePermissionKeys } from './index.js';

const kinds = await databaseKinds();

describe('admin routes declare a permission key', () => {
  it('refuses to register an admin route without a key, or with an unknown one', () => {
    const route = (config?: { permission?: string }) =>
      ({
        method: 'GET',
        url: '/api/admin/anything',
        handler: async () => ({}),
        onRequest: async () => undefined,
        config,
      }) as unknown as RouteOptions;
    expect(() => enforcePermissionKeys(route())).toThrow(/no permission key/);
    expect(() => enforcePermissionKeys(route({ permission: 'not_a_key' }))).toThrow(/no permission key/);
    expect(() => enforcePermissionKeys(route({ permission: 'customer_list' }))).not.toThrow();
  });
});

describe.each(kinds)('admin customer views on %s', (kind) => {
  let ctx: TestContext;
  const stamp = Date.now();
  let admin: Tokens;
  let support: Tokens;
  let owner: Tokens;
  let other: Tokens;
  let userId = '';
  let otherUserId = '';
  let subscriptionId = '';
  let deploymentId = '';

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    await insertStaff(ctx, `views.admin.${stamp}@kumo.test`, 'Ada Admin', 'SYSTEM_ADMIN');
    await insertStaff(ctx, `views.support.${stamp}@kumo.test`, 'Sue Support', 'SYSTEM_SUPPORT');
    admin = await logIn(ctx, `views.admin.${stamp}@kumo.test`);
    support = await logIn(ctx, `views.support.${stamp}@kumo.test`);
    owner = await signUp(ctx, `views.owner.${stamp}@example.com`, 'Olga Owner');
    other = await signUp(ctx, `views.other.${stamp}@example.com`, 'Otto Other');
    const me = (await get(ctx, '/api/user/detail', owner.jwt)).json();
    userId = me.userId;
    otherUserId = (await get(ctx, '/api/user/detail', other.jwt)).json().userId;
    // Otto is also an admin of Olga's account: an added user.
    await ctx.database.db.execute(
      sql`insert into account_members (account_id, user_id, role, created_at) values (${me.accounts[0].account_id}, ${otherUserId}, 'ACCOUNT_ADMIN', ${ctx.clock.now().toISOString()})`,
    );
    subscriptionId = await createSubscription(ctx, owner.jwt, 'Views Main');
    const created = await post(
      ctx,
      '/api/cluster/create',
      {
        subscription_id: subscriptionId,
        cluster_name: 'Views_Cluster',
        description: '',
        cloud_provider: 'AWS',
        enable_dr_flag: false,
        cidr: '10.70.0.0/16',
        region: 'us-east-1',
        backup_region: null,
        password: 'Sup3r#Secret-pw',
        kumo_version: '2026.10.1',
      },
      owner.jwt,
    );
    deploymentId = created.json().deployment_id;
  });
  afterAll(() => ctx.close());

  it('searches customers by part of the e-mail or the name, any case, on the server, 50 a page', async () => {
    const search = async (text: string) =>
      (await get(ctx, `/api/admin/users?page=0&size=50&search=${encodeURIComponent(text)}`, admin.jwt)).json<{
        content: { user_id: string; email_id: string }[];
        totalPages: number;
      }>();
    expect((await search(`VIEWS.OWNER.${stamp}`)).content.map((c) => c.user_id)).toEqual([userId]);
    expect((await search('otto oth')).content.map((c) => c.user_id)).toEqual([otherUserId]);
    // Wildcards typed are plain characters; no match is an empty page.
    expect(await search('%')).toEqual({ content: [], totalPages: 0 });
    const both = await search(`.${stamp}@example.com`);
    expect(both.content.map((c) => c.user_id).sort()).toEqual([userId, otherUserId].sort());
    expect(both.totalPages).toBe(1);
    // Staff are not customers, whatever they are called.
    expect((await search('Ada Admin')).content).toEqual([]);
    const all = (await get(ctx, '/api/admin/users', admin.jwt)).json<{ content: unknown[] }>();
    expect(all.content.length).toBeGreaterThanOrEqual(2);
    expect(all.content.length).toBeLessThanOrEqual(50);
  });

  it('shows the customer header, overview and added users', async () => {
    const detail = await get(ctx, `/api/admin/users/${userId}`, admin.jwt);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      user_id: userId,
      email_id: `views.owner.${stamp}@example.com`,
      outstanding_limit: 0,
      admin_access: false,
      km_user_role: 'Integration',
      overview: { kumo_ea_version_enabled: false },
    });
    expect(detail.json().total_subscription_balance).toBeGreaterThan(0);
    expect(detail.json().added_users.map((u: { user_id: string }) => u.user_id)).toEqual([otherUserId]);
    expect((await get(ctx, `/api/admin/users/${randomUUID()}`, admin.jwt)).statusCode).toBe(404);
    const people = (await get(ctx, `/api/admin/view-users/${userId}?page=0&size=20`, admin.jwt)).json();
    expect(people.content).toHaveLength(1);
    expect(people.totalPages).toBe(1);
  });

  it("lists subscriptions and a subscription's transactions, scoped to that customer", async () => {
    const subs = (await get(ctx, `/api/admin/view-subscriptions/${userId}`, support.jwt)).json();
    expect(subs.content.map((s: { subscription_id: string }) => s.subscription_id)).toEqual([subscriptionId]);
    const history = await get(ctx, `/api/admin/view/credit-transactions/${subscriptionId}?userId=${userId}&page=0&size=20`, support.jwt);
    expect(history.statusCode).toBe(200);
    const credit = history.json().content.find((row: { category: string }) => row.category === 'FREE_CREDITS');
    expect(credit).toBeTruthy();
    // The subscription is not the other customer's.
    expect((await get(ctx, `/api/admin/view/credit-transactions/${subscriptionId}?userId=${otherUserId}`, support.jwt)).statusCode).toBe(
      404,
    );
    // Credits are not a purchase: no receipt.
    const receipt = await get(ctx, `/api/admin/download-transaction-receipt/${credit.transaction_id}?userId=${userId}`, support.jwt);
    expect(receipt.statusCode).toBe(422);
    expect(errorCode(receipt)).toBe('RECEIPT_NOT_AVAILABLE');
  });

  it('lists clusters and shows one with its nodes', async () => {
    const page = (await get(ctx, `/api/admin/cluster/view?userId=${userId}&page=0&size=20`, support.jwt)).json();
    expect(page.content.map((c: { deployment_id: string }) => c.deployment_id)).toEqual([deploymentId]);
    // One subscription's clusters: that one has it, one with none is an empty page, another customer's is a 404.
    const of = (customer: string, id: string) =>
      get(ctx, `/api/admin/cluster/view?userId=${customer}&subscriptionId=${id}&page=0&size=20`, support.jwt);
    expect((await of(userId, subscriptionId)).json().content).toHaveLength(1);
    const othersOwn = await createSubscription(ctx, other.jwt, 'Other Own');
    expect((await of(otherUserId, othersOwn)).json()).toEqual({ content: [], totalPages: 0 });
    expect((await of(userId, othersOwn)).statusCode).toBe(404);
    const details = await get(ctx, `/api/admin/node-details-view/${deploymentId}?userId=${userId}`, support.jwt);
    expect(details.statusCode).toBe(200);
    expect(details.json().deployment_id).toBe(deploymentId);
    expect((await get(ctx, `/api/admin/node-details-view/${deploymentId}?userId=${otherUserId}`, support.jwt)).statusCode).toBe(404);
  });

  it('shows rates, an empty rate history, the cost of this month and of the last 12 months', async () => {
    const rates = (await get(ctx, `/api/admin/current-resource-rate/${userId}`, support.jwt)).json();
    expect(Object.keys(rates.service_rate)).toContain('BI_SERVER');
    expect((await get(ctx, `/api/admin/users/${userId}`, support.jwt)).json().overview.free_units).toEqual(rates.free_units);
    expect((await get(ctx, `/api/admin/service-rate-history/${userId}`, support.jwt)).json()).toEqual({ content: [], totalPages: 0 });
    const cost = (await get(ctx, `/api/admin/cost-analysis/${userId}?page=0&size=20`, support.jwt)).json();
    expect(cost.content.map((row: { subscription_id: string }) => row.subscription_id)).toEqual([subscriptionId]);
    expect(cost.consumed_amount).toBe(0);
    const months = (await get(ctx, `/api/admin/view/cumulative-cost-consumption?userId=${userId}`, support.jwt)).json();
    expect(months).toHaveLength(12);
  });

  it('turns the preview release on for the customer; support may not', async () => {
    expect((await send(ctx, 'POST', `/api/admin/kumo-ea-version/${userId}?action=ENABLE`, undefined, support.jwt)).statusCode).toBe(403);
    const on = await send(ctx, 'POST', `/api/admin/kumo-ea-version/${userId}?action=ENABLE`, undefined, admin.jwt);
    expect(on.json()).toEqual({ kumo_ea_version_enabled: true });
    expect((await get(ctx, '/api/cluster/check-kumo-ea-version', owner.jwt)).json()).toEqual({ kumo_ea_version_enabled: true });
    await send(ctx, 'POST', `/api/admin/kumo-ea-version/${userId}?action=DISABLE`, undefined, admin.jwt);
    expect((await get(ctx, '/api/cluster/check-kumo-ea-version', owner.jwt)).json()).toEqual({ kumo_ea_version_enabled: false });
  });

  it('changes manager access only with every cluster online, and never back to standard', async () => {
    const check = (await get(ctx, `/api/admin/check-km-access/${userId}`, admin.jwt)).json();
    expect(check).toMatchObject({ km_access_allowed: false, message: ADMIN_MESSAGES.kmAccessClustersOffline });
    const grant = { admin_access: true, km_user_role: 'Administrator' };
    const refused = await post(ctx, `/api/admin/manage-km-access/${userId}`, grant, admin.jwt);
    expect(refused.statusCode).toBe(422);
    await ctx.database.db.execute(sql`update clusters set status = 'ONLINE' where id = ${deploymentId}`);
    expect((await get(ctx, `/api/admin/check-km-access/${userId}`, admin.jwt)).json().km_access_allowed).toBe(true);
    expect((await post(ctx, `/api/admin/manage-km-access/${userId}`, grant, support.jwt)).statusCode).toBe(403);
    const granted = await post(ctx, `/api/admin/manage-km-access/${userId}`, grant, admin.jwt);
    expect(granted.statusCode).toBe(200);
    expect((await get(ctx, `/api/admin/users/${userId}`, admin.jwt)).json()).toMatchObject({
      admin_access: true,
      km_user_role: 'Administrator',
    });
    const back = await post(ctx, `/api/admin/manage-km-access/${userId}`, { admin_access: true, km_user_role: 'Integration' }, admin.jwt);
    expect(back.statusCode).toBe(422);
    expect(errorMessage(back)).toBe(ADMIN_MESSAGES.kmAccessRevert);
  });

  it('downloads the deployment template and opens the manager of an online cluster the customer lets staff into', async () => {
    const file = await get(ctx, `/api/admin/download-cluster-template/${deploymentId}?userId=${userId}`, admin.jwt);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/attachment; filename=".+\.template\.json"/);
    expect(JSON.parse(file.body).AWSTemplateFormatVersion).toBe('2010-09-09');
    expect(file.body).not.toContain('Sup3r#Secret-pw');
    // Named with another customer, the cluster is not found.
    expect((await get(ctx, `/api/admin/download-cluster-template/${deploymentId}?userId=${otherUserId}`, admin.jwt)).statusCode).toBe(404);
    // The previous test left the cluster ONLINE and provider access granted.
    await ctx.database.db.execute(sql`update clusters set manager_url = 'https://manager.example.com/km' where id = ${deploymentId}`);
    const sso = await get(ctx, `/api/admin/kumo/sso/${deploymentId}?userId=${userId}`, admin.jwt);
    expect(sso.statusCode).toBe(200);
    expect(sso.json().url).toMatch(/^https:\/\/manager\.example\.com\/km\?sso=[\w-]+\.[\w-]+$/);
    // Its ticket names the staff member, with the provider's administrative level, for a minute.
    const { rows } = await ctx.database.db.execute(sql`select id from users where email = ${`views.admin.${stamp}@kumo.test`}`);
    const staffId = String((rows[0] as { id: string }).id);
    const ticket = readManagerTicket(
      TEST_TICKET_KEY,
      new URL(sso.json().url).searchParams.get(MANAGER_TICKET_PARAM) ?? '',
      ctx.clock.now(),
    );
    expect(ticket).toEqual({
      id: expect.any(String),
      deploymentId,
      page: 'manager',
      holder: { kind: 'staff', userId: staffId, email: `views.admin.${stamp}@kumo.test` },
      level: 'FULL_ADMIN',
      expiresAt: new Date(ctx.clock.now().getTime() + 60_000),
    });
    expect((await get(ctx, `/api/admin/kumo/sso/${deploymentId}?userId=${userId}`, support.jwt)).statusCode).toBe(403);
    await ctx.database.db.execute(sql`update clusters set status = 'OFFLINE' where id = ${deploymentId}`);
    expect((await get(ctx, `/api/admin/kumo/sso/${deploymentId}?userId=${userId}`, admin.jwt)).statusCode).toBe(422);
  });

  it('every admin route checks its key: anonymous 401, a customer 403', async () => {
    expect(ADMIN_ROUTE_PERMISSIONS.size).toBeGreaterThanOrEqual(14);
    for (const [route, key] of ADMIN_ROUTE_PERMISSIONS) {
      expect(PERMISSION_KEYS).toContain(key);
      const [method, pattern] = route.split(' ') as ['GET' | 'POST', string];
      const url = pattern.replace(/:[a-zA-Z]+/g, randomUUID());
      const call = (token?: string) => (method === 'GET' ? get(ctx, url, token) : send(ctx, method, url, {}, token));
      expect({ route, status: (await call()).statusCode }).toEqual({ route, status: 401 });
      expect({ route, status: (await call(owner.jwt)).statusCode }).toEqual({ route, status: 403 });
    }
  });
});

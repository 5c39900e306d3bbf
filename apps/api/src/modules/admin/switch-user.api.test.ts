import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ADMIN_MESSAGES, MESSAGES, TOKENS } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import {
  errorCode,
  errorMessage,
  get,
  logIn,
  post,
  send,
  signUp,
  startTestApp,
  tokensOf,
  type TestContext,
  type Tokens,
} from '../../../test/support/harness.js';
import { insertStaff } from '../../../test/support/staff.js';

/**
 * Staff viewing a customer's console (userSwitched): a read-only session in the customer's name that names the
 * staff member, refused every state-changing call on the server, ended by the end call or logout, with each start
 * and end in the customer's audit trail.
 */
const kinds = await databaseKinds();

/** The calls a customer view may still make: the ones that end it. */
const ENDING_CALLS = ['POST /api/user/logout', 'POST /api/user/switch-user/end'];
const UNSAFE = ['post', 'put', 'patch', 'delete'];

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe.each(kinds)('viewing a customer as the customer on %s', (kind) => {
  let ctx: TestContext;
  const stamp = Date.now();
  const supportEmail = `switch.support.${stamp}@kumo.test`;
  let support: Tokens;
  let supportId = '';
  let owner: Tokens;
  let userId = '';
  let accountId = '';
  let subscriptionId = '';

  const start = (tokens: Tokens | undefined, customer = userId) =>
    send(ctx, 'POST', `/api/admin/switch-user/${customer}`, undefined, tokens?.jwt);
  async function view(): Promise<Tokens> {
    const response = await start(support);
    expect(response.statusCode).toBe(200);
    return tokensOf(response);
  }
  const auditTrail = async () =>
    (
      await ctx.database.db.execute<{ event: string; actor_user_id: string; actor_label: string; description: string; created_at: string }>(
        sql`select event, actor_user_id, actor_label, description, created_at from account_audit_logs where account_id = ${accountId} order by seq`,
      )
    ).rows;

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    await insertStaff(ctx, supportEmail, 'Sue Support', 'SYSTEM_SUPPORT');
    await insertStaff(ctx, `switch.devops.${stamp}@kumo.test`, 'Dev Ops', 'SYSTEM_DEVOPS');
    support = await logIn(ctx, supportEmail);
    supportId = (await get(ctx, '/api/user/detail', support.jwt)).json().userId;
    owner = await signUp(ctx, `switch.owner.${stamp}@example.com`, 'Olga Owner');
    const me = (await get(ctx, '/api/user/detail', owner.jwt)).json();
    userId = me.userId;
    accountId = me.accounts[0].account_id;
    subscriptionId = await createSubscription(ctx, owner.jwt, 'Switch Main');
  });
  afterAll(() => ctx.close());

  it("starts a short-lived session in the customer's name that carries the staff member and userSwitched", async () => {
    const response = await start(support);
    expect(response.statusCode).toBe(200);
    const expiresAt = new Date(ctx.clock.now().getTime() + TOKENS.userSwitchedMinutes * MINUTE);
    expect(response.json()).toEqual({
      message: ADMIN_MESSAGES.userSwitched,
      customer_name: 'Olga Owner',
      expires_at: expiresAt.toISOString(),
    });
    const claims = claimsOf(tokensOf(response).jwt);
    expect(claims).toMatchObject({ sub: userId, acc: accountId, role: 'ACCOUNT_OWNER', act: { sub: supportId }, userSwitched: true });
    expect(claims.exp).toBe(Math.floor(ctx.clock.now().getTime() / 1000) + TOKENS.accessTokenMinutes * 60);
    // A sign-in's token carries neither.
    expect(claimsOf(owner.jwt)).not.toHaveProperty('act');
    expect(claimsOf(owner.jwt)).not.toHaveProperty('userSwitched');
  });

  it('reads what the customer sees, and names the staff member in the user detail', async () => {
    const viewing = await view();
    const detail = await get(ctx, '/api/user/detail', viewing.jwt);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      userId,
      userName: 'Olga Owner',
      role: 'ACCOUNT_OWNER',
      userSwitched: { userName: 'Sue Support', emailId: supportEmail },
    });
    expect(detail.json()).not.toHaveProperty('permissions');
    expect((await get(ctx, '/api/user/detail', owner.jwt)).json()).not.toHaveProperty('userSwitched');
    const subscriptions = await get(ctx, '/api/subscription/list', viewing.jwt);
    expect(subscriptions.statusCode).toBe(200);
    expect(subscriptions.json().map((s: { subscription_id: string }) => s.subscription_id)).toEqual([subscriptionId]);
    expect((await get(ctx, '/api/account/users', viewing.jwt)).statusCode).toBe(200);
    expect((await get(ctx, `/api/credit/view/credit-transactions/${subscriptionId}?page=0&size=20`, viewing.jwt)).statusCode).toBe(200);
  });

  it('refuses every state-changing call but ending the view, on the server, with a clear message', async () => {
    const viewing = await view();
    const paths = (ctx.app.swagger() as { paths: Record<string, Record<string, { security?: unknown[] }>> }).paths;
    const signedInWrites = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method, operation]) => UNSAFE.includes(method) && operation.security?.length)
        .map(([method]) => ({ method: method.toUpperCase() as 'POST' | 'PUT' | 'PATCH' | 'DELETE', path })),
    );
    const refusable = signedInWrites.filter(({ method, path }) => !ENDING_CALLS.includes(`${method} ${path}`));
    // The customer's writes and the staff's alike, so a new write route cannot slip through.
    expect(refusable.map(({ method, path }) => `${method} ${path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/subscription/create',
        'POST /api/credit/purchase',
        'POST /api/cluster/create',
        'POST /api/user/invite',
        'PUT /api/account/delete-user',
        'DELETE /api/subscription/delete/{id}',
        'POST /api/user/switch-account',
        'POST /api/admin/switch-user/{userId}',
      ]),
    );
    const answers = [];
    for (const { method, path } of refusable) {
      const response = await send(ctx, method, path.replace(/\{[^}]+\}/g, randomUUID()), {}, viewing.jwt);
      answers.push({ route: `${method} ${path}`, status: response.statusCode, code: errorCode(response), message: errorMessage(response) });
    }
    expect(answers.filter((answer) => answer.status !== 403 || answer.code !== 'READ_ONLY_VIEW')).toEqual([]);
    expect(answers[0]?.message).toBe(ADMIN_MESSAGES.readOnlyView);

    // Nothing changed: the subscription is still the only one, and the customer can still write.
    const create = await post(
      ctx,
      '/api/subscription/create',
      { subscription_name: 'From Staff', remark: '', subscription_type: 'PREPAID' },
      viewing.jwt,
    );
    expect(create.statusCode).toBe(403);
    expect((await get(ctx, '/api/subscription/list', owner.jwt)).json()).toHaveLength(1);
    expect(signedInWrites.map(({ method, path }) => `${method} ${path}`)).toEqual(expect.arrayContaining(ENDING_CALLS));
  });

  it("ends on the end call, back to the staff member's own session, with start and end in the customer's audit trail", async () => {
    const before = (await auditTrail()).length;
    const startedAt = ctx.clock.now();
    const viewing = await view();
    ctx.clock.advance(5 * MINUTE);
    const ended = await post(ctx, '/api/user/switch-user/end', undefined, viewing.jwt);
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ message: ADMIN_MESSAGES.userSwitchEnded });
    expect((await get(ctx, '/api/user/detail', viewing.jwt)).statusCode).toBe(401);
    expect((await post(ctx, '/api/user/refresh-token', { refresh_token: viewing.refresh })).statusCode).toBe(401);
    // The staff member's session was never touched.
    expect((await get(ctx, '/api/admin/users', support.jwt)).statusCode).toBe(200);

    const entries = (await auditTrail()).slice(before);
    expect(
      entries.map(({ event, actor_user_id, actor_label, created_at }) => ({
        event,
        actor_user_id,
        actor_label,
        at: new Date(created_at).toISOString(),
      })),
    ).toEqual([
      { event: 'USER_SWITCH_STARTED', actor_user_id: supportId, actor_label: `Sue Support (${supportEmail})`, at: startedAt.toISOString() },
      {
        event: 'USER_SWITCH_ENDED',
        actor_user_id: supportId,
        actor_label: `Sue Support (${supportEmail})`,
        at: ctx.clock.now().toISOString(),
      },
    ]);
    expect(entries[0]?.description).toBe(`Kumo Cloud staff member Sue Support (${supportEmail}) started viewing the console, read-only.`);
    expect(entries[1]?.description).toBe(`Kumo Cloud staff member Sue Support (${supportEmail}) stopped viewing the console.`);

    // Ending twice records nothing more.
    expect((await post(ctx, '/api/user/switch-user/end', undefined, viewing.jwt)).statusCode).toBe(401);
    expect(await auditTrail()).toHaveLength(before + 2);
  });

  it("shows the account's owner its trail, a month at a time and newest first, and no one else's", async () => {
    await post(ctx, '/api/user/switch-user/end', undefined, (await view()).jwt);
    const response = await get(ctx, '/api/account/audit-logs', owner.jwt);
    expect(response.statusCode).toBe(200);
    const trail = response.json();
    const stored = await auditTrail();
    expect(trail.page_content.content).toHaveLength(stored.length);
    expect(trail.page_content.content[0]).toMatchObject({
      event: 'USER_SWITCH_ENDED',
      description: `Kumo Cloud staff member Sue Support (${supportEmail}) stopped viewing the console.`,
      caused_by: `Sue Support (${supportEmail})`,
    });
    const now = ctx.clock.now();
    expect(trail.start_date).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());

    const paged = (await get(ctx, '/api/account/audit-logs?size=1&page=1', owner.jwt)).json();
    expect(paged.page_content).toEqual({ content: [trail.page_content.content[1]], totalPages: stored.length });
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 19);
    expect((await get(ctx, `/api/account/audit-logs?startDate=${lastMonth}`, owner.jwt)).json().page_content).toEqual({
      content: [],
      totalPages: 0,
    });
    const bad = await get(ctx, '/api/account/audit-logs?startDate=2026-13-01', owner.jwt);
    expect(bad.statusCode).toBe(400);

    const stranger = await signUp(ctx, `switch.stranger.${stamp}@example.com`, 'Stan Stranger');
    expect((await get(ctx, '/api/account/audit-logs', stranger.jwt)).json().page_content.content).toEqual([]);
    expect((await get(ctx, '/api/account/audit-logs', support.jwt)).statusCode).toBe(403);
  });

  it('ends on logout too, and records it', async () => {
    const before = (await auditTrail()).length;
    const viewing = await view();
    expect((await post(ctx, '/api/user/logout', undefined, viewing.jwt)).statusCode).toBe(200);
    expect((await get(ctx, '/api/user/detail', viewing.jwt)).statusCode).toBe(401);
    expect((await auditTrail()).slice(before).map((entry) => entry.event)).toEqual(['USER_SWITCH_STARTED', 'USER_SWITCH_ENDED']);
  });

  it('refuses the end call to a session that is not a customer view', async () => {
    const response = await post(ctx, '/api/user/switch-user/end', undefined, owner.jwt);
    expect(response.statusCode).toBe(403);
    expect(errorMessage(response)).toBe(ADMIN_MESSAGES.notUserSwitched);
    expect((await post(ctx, '/api/user/switch-user/end', undefined, support.jwt)).statusCode).toBe(403);
    expect((await post(ctx, '/api/user/switch-user/end', undefined)).statusCode).toBe(401);
    expect((await get(ctx, '/api/user/detail', owner.jwt)).statusCode).toBe(200);
  });

  it('refuses customers, anonymous callers, roles whose key is not enabled, and unknown customers', async () => {
    const before = (await auditTrail()).length;
    expect((await start(owner)).statusCode).toBe(403);
    expect((await start(undefined)).statusCode).toBe(401);
    const devops = await logIn(ctx, `switch.devops.${stamp}@kumo.test`);
    expect((await start(devops)).statusCode).toBe(403);
    const unknown = await start(support, randomUUID());
    expect(unknown.statusCode).toBe(404);
    expect(errorMessage(unknown)).toBe(ADMIN_MESSAGES.customerNotFound);
    expect(await auditTrail()).toHaveLength(before);
  });

  it('refreshes within its time only, and every refreshed token stays read-only', async () => {
    const viewing = await view();
    ctx.clock.advance(TOKENS.accessTokenMinutes * MINUTE + MINUTE);
    expect(errorCode(await get(ctx, '/api/user/detail', viewing.jwt))).toBe('TOKEN_EXPIRED');
    const refreshed = await post(ctx, '/api/user/refresh-token', { refresh_token: viewing.refresh });
    expect(refreshed.statusCode).toBe(200);
    const again = tokensOf(refreshed);
    expect(claimsOf(again.jwt)).toMatchObject({ act: { sub: supportId }, userSwitched: true });
    // The new token ends with the view, not a full token lifetime later.
    const viewEnds = (await get(ctx, '/api/user/detail', again.jwt)).json().userSwitched.expiresAt as string;
    expect(claimsOf(again.jwt).exp).toBe(new Date(viewEnds).getTime() / 1000);
    const write = await post(
      ctx,
      '/api/subscription/create',
      { subscription_name: 'Later', remark: '', subscription_type: 'PREPAID' },
      again.jwt,
    );
    expect(errorCode(write)).toBe('READ_ONLY_VIEW');

    ctx.clock.set(viewEnds);
    expect(errorCode(await get(ctx, '/api/user/detail', again.jwt))).toBe('TOKEN_EXPIRED');
    const late = await post(ctx, '/api/user/refresh-token', { refresh_token: again.refresh });
    expect(late.statusCode).toBe(401);
    expect(errorMessage(late)).toBe(MESSAGES.refreshExpired);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_LIMITS, API_TOKEN_MESSAGES } from '@kumo/contract';
import { DAY, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';
import { errorCode, post, send, startTestApp, tokensOf, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

/** A call with a personal API token only: no cookie, no XSRF header, from `ip` (127.0.0.1 unless given). */
function withToken(
  ctx: TestContext,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string,
  options: { body?: unknown; ip?: string } = {},
) {
  return ctx.app.inject({
    method,
    url,
    payload: options.body as object | undefined,
    remoteAddress: options.ip,
    headers: { authorization: `Bearer ${token}` },
  });
}

describe.each(kinds)('personal API tokens on %s', (kind) => {
  let ctx: TestContext;
  const steps = clusterSteps(() => ctx);
  let owner: { email: string; jwt: string; subscriptionId: string };
  let clusterId: string;

  async function createToken(jwt: string, body: Record<string, unknown> = {}) {
    const response = await post(
      ctx,
      '/api/user/api-tokens',
      { name: 'nightly', scope: 'WRITE', expires_in_days: 30, allowed_ips: [], ...body },
      jwt,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ token_id: string; token: string; prefix: string; expires_at: string | null }>();
  }

  async function invitedAdmin(email: string): Promise<string> {
    const invited = await post(
      ctx,
      '/api/user/invite',
      { invited_user_id: email, invited_user_name: 'Ada Admin', role: 'ACCOUNT_ADMIN' },
      owner.jwt,
    );
    expect(invited.statusCode, invited.body).toBe(200);
    const mail = (await ctx.services.mail.listRecent(20)).find((row) => row.toAddress === email)!;
    const token = mail.textBody.match(/token=([\w-]+)/)![1];
    return tokensOf(await post(ctx, '/api/user/invite/accept', { token })).jwt;
  }

  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    owner = await steps.customer();
    clusterId = await steps.deployOnline(owner.jwt, owner.subscriptionId);
  });
  afterAll(async () => ctx?.close());

  it('shows the secret once, stores only its hash, and lists the token with its last use', async () => {
    const created = await createToken(owner.jwt, { name: 'Shown once' });
    expect(created.token).toMatch(/^kumo_pat_[0-9A-Za-z]{43}$/);
    expect(created.token.startsWith(created.prefix)).toBe(true);
    expect(new Date(created.expires_at!).getTime() - ctx.clock.now().getTime()).toBe(30 * DAY);
    const stored = await ctx.database.db.execute(sql`select * from api_tokens where id = ${created.token_id}`);
    expect(JSON.stringify(stored.rows)).not.toContain(created.token.slice(API_TOKEN_LIMITS.displayChars));

    const listed = (
      await ctx.app.inject({ method: 'GET', url: '/api/user/api-tokens', headers: { authorization: `Bearer ${owner.jwt}` } })
    ).json();
    const mine = listed.find((token: { token_id: string }) => token.token_id === created.token_id);
    expect(mine).toMatchObject({ name: 'Shown once', scope: 'WRITE', last_used_at: null, last_used_ip: null });
    expect(JSON.stringify(listed)).not.toContain(created.token);

    const used = await withToken(ctx, 'GET', '/api/subscription/list', created.token, { ip: '198.51.100.7' });
    expect(used.statusCode, used.body).toBe(200);
    const lastUse = async () =>
      (
        await ctx.database.db.execute<{ last_used_at: Date; last_used_ip: string }>(
          sql`select last_used_at, last_used_ip from api_tokens where id = ${created.token_id}`,
        )
      ).rows[0]!;
    const first = await lastUse();
    expect(first.last_used_ip).toBe('198.51.100.7');
    expect(new Date(first.last_used_at).getTime()).toBe(ctx.clock.now().getTime());
    // Within the minute a use costs no write; after it, the next use is noted.
    ctx.clock.advance(30_000);
    await withToken(ctx, 'GET', '/api/subscription/list', created.token);
    expect(new Date((await lastUse()).last_used_at).getTime()).toBe(new Date(first.last_used_at).getTime());
    ctx.clock.advance(MINUTE);
    await withToken(ctx, 'GET', '/api/subscription/list', created.token);
    expect(new Date((await lastUse()).last_used_at).getTime()).toBe(ctx.clock.now().getTime());
  });

  it('lets a WRITE token stop and start a cluster without an XSRF header, named in the audit trail', async () => {
    const { token } = await createToken(owner.jwt, { name: 'office hours' });
    const stopped = await withToken(ctx, 'GET', `/api/cluster/stop/${clusterId}`, token);
    expect(stopped.statusCode, stopped.body).toBe(200);
    await steps.elapse(60_000, clusterId);
    const started = await withToken(ctx, 'GET', `/api/cluster/start/${clusterId}`, token);
    expect(started.statusCode, started.body).toBe(200);
    const audit = (await withToken(ctx, 'GET', `/api/cluster/get-audit-logs/${clusterId}`, token)).json();
    const causes = audit.page_content.content.map((entry: { caused_by: string }) => entry.caused_by);
    expect(causes).toContain(`${owner.email} (API token "office hours")`);
  });

  it("lets a READ token read the account's audit trail and its export, as any customer read", async () => {
    const { token } = await createToken(owner.jwt, { scope: 'READ' });
    const page = await withToken(ctx, 'GET', '/api/account/audit-logs', token);
    expect(page.statusCode, page.body).toBe(200);
    const exported = await withToken(ctx, 'GET', '/api/account/audit-logs/export?format=json', token);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json().entries.length).toBeGreaterThan(0);
  });

  it('refuses a READ token every state-changing call, GETs that change state included', async () => {
    const { token } = await createToken(owner.jwt, { scope: 'READ' });
    expect((await withToken(ctx, 'GET', '/api/subscription/list', token)).statusCode).toBe(200);
    const stop = await withToken(ctx, 'GET', `/api/cluster/stop/${clusterId}`, token);
    expect([stop.statusCode, errorCode(stop)]).toEqual([403, 'TOKEN_SCOPE']);
    const create = await withToken(ctx, 'POST', '/api/subscription/create', token, {
      body: { subscription_name: 'Scripted', remark: '', subscription_type: 'PREPAID' },
    });
    expect([create.statusCode, errorCode(create)]).toEqual([403, 'TOKEN_SCOPE']);
  });

  it('answers 403 to a call from outside the allowed addresses, IPv4 and IPv6', async () => {
    const { token } = await createToken(owner.jwt, { allowed_ips: ['203.0.113.0/24', '2001:db8::/32'] });
    const outside = await withToken(ctx, 'GET', '/api/subscription/list', token, { ip: '198.51.100.1' });
    expect([outside.statusCode, errorCode(outside)]).toEqual([403, 'TOKEN_IP_NOT_ALLOWED']);
    expect((await withToken(ctx, 'GET', '/api/subscription/list', token, { ip: '203.0.113.77' })).statusCode).toBe(200);
    expect((await withToken(ctx, 'GET', '/api/subscription/list', token, { ip: '::ffff:203.0.113.78' })).statusCode).toBe(200);
    expect((await withToken(ctx, 'GET', '/api/subscription/list', token, { ip: '2001:db8:1::5' })).statusCode).toBe(200);
    const otherV6 = await withToken(ctx, 'GET', '/api/subscription/list', token, { ip: '2001:db9::5' });
    expect(otherV6.statusCode).toBe(403);
  });

  it('refuses bad ranges, lifetimes and scopes with the field at fault', async () => {
    for (const [body, field] of [
      [{ allowed_ips: ['10.0.0.0/33'] }, 'allowed_ips.0'],
      [{ allowed_ips: ['2001:db8:::/32'] }, 'allowed_ips.0'],
      [{ expires_in_days: 10 }, 'expires_in_days'],
      [{ scope: 'ADMIN' }, 'scope'],
    ] as const) {
      const valid: Record<string, unknown> = { name: 'bad', scope: 'READ', expires_in_days: 7, allowed_ips: [] };
      const response = await post(ctx, '/api/user/api-tokens', { ...valid, ...body }, owner.jwt);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json().field_errors ?? {})).toContain(field);
    }
  });

  it('keeps a token out of the staff area and of what only a person may do', async () => {
    const { token } = await createToken(owner.jwt);
    const refusals = [
      withToken(ctx, 'GET', '/api/admin/users', token),
      withToken(ctx, 'POST', '/api/user/api-tokens', token, {
        body: { name: 'child', scope: 'WRITE', expires_in_days: 7, allowed_ips: [] },
      }),
      withToken(ctx, 'GET', '/api/user/api-tokens', token),
      withToken(ctx, 'POST', '/api/user/invite', token, {
        body: { invited_user_id: 'x@example.com', invited_user_name: 'X', role: 'ACCOUNT_ADMIN' },
      }),
      withToken(ctx, 'PUT', '/api/account/delete-user', token, { body: { email_id: 'x@example.com' } }),
      withToken(ctx, 'POST', '/api/user/operation', token, { body: { deployment_id: clusterId, operation: 'DELETE_CLUSTER' } }),
      withToken(ctx, 'POST', '/api/user/operation/authenticate', token, { body: { operation_id: clusterId, otp: '123456' } }),
    ];
    for (const response of await Promise.all(refusals)) {
      expect([response.statusCode, errorCode(response)], response.body).toEqual([403, 'TOKEN_NOT_ALLOWED']);
    }
  });

  it('stops working when its creator loses the admin role or leaves the account', async () => {
    const demotedEmail = steps.freshEmail();
    const demoted = await createToken(await invitedAdmin(demotedEmail));
    const leaverEmail = steps.freshEmail();
    const leaver = await createToken(await invitedAdmin(leaverEmail));
    expect((await withToken(ctx, 'GET', '/api/subscription/list', demoted.token)).statusCode).toBe(200);
    await ctx.database.db.execute(
      sql`update account_members set role = 'CLUSTER_MEMBER' where user_id = (select id from users where email = ${demotedEmail})`,
    );
    const afterDemotion = await withToken(ctx, 'GET', '/api/subscription/list', demoted.token);
    expect([afterDemotion.statusCode, errorCode(afterDemotion)]).toEqual([401, 'TOKEN_INVALID']);
    const removed = await send(ctx, 'PUT', '/api/account/delete-user', { email_id: leaverEmail }, owner.jwt);
    expect(removed.statusCode, removed.body).toBe(200);
    const afterLeaving = await withToken(ctx, 'GET', '/api/subscription/list', leaver.token);
    expect([afterLeaving.statusCode, errorCode(afterLeaving)]).toEqual([401, 'TOKEN_INVALID']);
  });

  it('stays revoked when its creator is invited back or promoted again', async () => {
    const leaverEmail = steps.freshEmail();
    const leaver = await createToken(await invitedAdmin(leaverEmail));
    const removed = await send(ctx, 'PUT', '/api/account/delete-user', { email_id: leaverEmail }, owner.jwt);
    expect(removed.statusCode, removed.body).toBe(200);
    // Revoked with the removal itself, before anyone tries the token.
    const [row] = (await ctx.database.db.execute(sql`select revoked_at from api_tokens where id = ${leaver.token_id}`)).rows;
    expect(row?.revoked_at).not.toBeNull();
    await invitedAdmin(leaverEmail);
    const afterReturn = await withToken(ctx, 'GET', '/api/subscription/list', leaver.token);
    expect([afterReturn.statusCode, errorCode(afterReturn)]).toEqual([401, 'TOKEN_INVALID']);

    const demotedEmail = steps.freshEmail();
    const demoted = await createToken(await invitedAdmin(demotedEmail));
    const setRole = (role: string) =>
      ctx.database.db.execute(
        sql`update account_members set role = ${role} where user_id = (select id from users where email = ${demotedEmail})`,
      );
    await setRole('CLUSTER_MEMBER');
    expect((await withToken(ctx, 'GET', '/api/subscription/list', demoted.token)).statusCode).toBe(401);
    await setRole('ACCOUNT_ADMIN');
    const afterPromotion = await withToken(ctx, 'GET', '/api/subscription/list', demoted.token);
    expect([afterPromotion.statusCode, errorCode(afterPromotion)]).toEqual([401, 'TOKEN_INVALID']);
  });

  it("lists and revokes only the caller's own tokens", async () => {
    const adminJwt = await invitedAdmin(steps.freshEmail());
    const ownersToken = await createToken(owner.jwt, { name: 'owner only' });
    const adminList = (
      await ctx.app.inject({ method: 'GET', url: '/api/user/api-tokens', headers: { authorization: `Bearer ${adminJwt}` } })
    ).json();
    expect(adminList.map((token: { token_id: string }) => token.token_id)).not.toContain(ownersToken.token_id);
    const foreign = await send(ctx, 'DELETE', `/api/user/api-tokens/${ownersToken.token_id}`, undefined, adminJwt);
    expect(foreign.statusCode).toBe(404);
    expect((await withToken(ctx, 'GET', '/api/subscription/list', ownersToken.token)).statusCode).toBe(200);
  });

  it('limits each token to its calls per minute, with the X-RateLimit headers on every call and Retry-After', async () => {
    const { token } = await createToken(owner.jwt);
    for (let call = 1; call <= API_TOKEN_LIMITS.callsPerMinute; call++) {
      const answer = await withToken(ctx, 'GET', '/api/subscription/list', token);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['x-ratelimit-limit']).toBe(String(API_TOKEN_LIMITS.callsPerMinute));
      expect(answer.headers['x-ratelimit-remaining']).toBe(String(API_TOKEN_LIMITS.callsPerMinute - call));
      expect(Number(answer.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    }
    const limited = await withToken(ctx, 'GET', '/api/subscription/list', token);
    expect([limited.statusCode, errorCode(limited)]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    const other = await createToken(owner.jwt);
    expect((await withToken(ctx, 'GET', '/api/subscription/list', other.token)).statusCode).toBe(200);
  });

  // Last: it moves the clock a week on, past the sessions of the people above.
  it('answers 401 to an expired, a revoked and an unknown token', async () => {
    const expiring = await createToken(owner.jwt, { expires_in_days: 7 });
    const revoked = await createToken(owner.jwt);
    const forever = await createToken(owner.jwt, { expires_in_days: null });
    expect(forever.expires_at).toBeNull();
    const revoke = await send(ctx, 'DELETE', `/api/user/api-tokens/${revoked.token_id}`, undefined, owner.jwt);
    expect(revoke.json().message).toBe(API_TOKEN_MESSAGES.revoked);
    ctx.clock.advance(7 * DAY + 1000);
    const expired = await withToken(ctx, 'GET', '/api/subscription/list', expiring.token);
    expect([expired.statusCode, errorCode(expired)]).toEqual([401, 'TOKEN_EXPIRED']);
    const gone = await withToken(ctx, 'GET', '/api/subscription/list', revoked.token);
    expect([gone.statusCode, errorCode(gone)]).toEqual([401, 'TOKEN_INVALID']);
    const unknown = await withToken(ctx, 'GET', '/api/subscription/list', `kumo_pat_${'x'.repeat(43)}`);
    expect([unknown.statusCode, errorCode(unknown)]).toEqual([401, 'TOKEN_INVALID']);
    expect((await withToken(ctx, 'GET', '/api/subscription/list', forever.token)).statusCode).toBe(200);
  });
});

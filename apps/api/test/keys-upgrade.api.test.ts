/**
 * Before keys were derived per purpose, tokens were hashed under the master secret itself. What was issued then
 * keeps working after the upgrade: sessions, API tokens and invitations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { keyedHash } from '../src/lib/crypto.js';
import { databaseKinds } from './support/databases.js';
import { TEST_SECRET, get, post, signUp, startTestApp, tokensOf, type TestContext } from './support/harness.js';

const kinds = await databaseKinds();
const hashedTheOldWay = (purpose: string, value: string) => keyedHash(TEST_SECRET, purpose, value);

describe.each(kinds)('tokens hashed before keys were derived, on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  it('a refresh token, an API token and an invitation hashed under the master still work, and new ones are not', async () => {
    const email = `upgrade.${Date.now()}@example.com`;
    const owner = await signUp(ctx, email, 'Uma Upgrade');
    const token = (
      await post(ctx, '/api/user/api-tokens', { name: 'old', scope: 'READ', expires_in_days: 7, allowed_ips: [] }, owner.jwt)
    ).json().token as string;
    const invitee = `upgrade.invitee.${Date.now()}@example.com`;
    await post(ctx, '/api/user/invite', { invited_user_id: invitee, invited_user_name: 'Ivy Invited', role: 'ACCOUNT_ADMIN' }, owner.jwt);
    const mail = (await ctx.services.mail.listRecent(50)).find((row) => row.toAddress === invitee)!;
    const invitation = mail.textBody.match(/token=([\w-]+)/)![1]!;

    // Stored now under the derived key: not the old form.
    const db = ctx.database.db;
    const apiTokenRow = (await db.execute<{ h: string }>(sql`select secret_hash as h from api_tokens where name = 'old'`)).rows[0]!;
    expect(apiTokenRow.h).not.toBe(hashedTheOldWay('api-token', token));

    // Rewritten as the portal stored them before the upgrade.
    await db.execute(sql`update api_tokens set secret_hash = ${hashedTheOldWay('api-token', token)} where name = 'old'`);
    await db.execute(sql`update invitations set token_hash = ${hashedTheOldWay('invitation', invitation)} where email = ${invitee}`);
    await db.execute(
      sql`update refresh_tokens set token_hash = ${hashedTheOldWay('refresh', owner.refresh)} where used_at is null and session_id in
          (select s.id from sessions s join users u on u.id = s.user_id where u.email = ${email})`,
    );

    expect((await get(ctx, '/api/subscription/list', token)).statusCode).toBe(200);
    const refreshed = await post(ctx, '/api/user/refresh-token', { refresh_token: owner.refresh });
    expect(refreshed.statusCode).toBe(200);
    expect((await get(ctx, '/api/user/detail', tokensOf(refreshed).jwt)).statusCode).toBe(200);
    expect((await post(ctx, '/api/user/invite/accept', { token: invitation })).statusCode).toBe(200);
  });
});

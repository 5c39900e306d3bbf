import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, send, signUp, startTestApp, tokensOf, type TestContext, type Tokens } from '../../../test/support/harness.js';

/** The printable report lives at an address that carries its signed session; it ends with the sign-in session that asked for it. */
const kinds = await databaseKinds();

describe.each(kinds)('report addresses on %s', (kind) => {
  let ctx: TestContext;
  const stamp = Date.now();
  let owner: Tokens;
  let ownerId = '';
  let support: Tokens;

  const reportPath = async (jwt: string) => {
    const issued = await get(ctx, '/api/user/report-url', jwt);
    expect(issued.statusCode).toBe(200);
    const url = new URL(issued.json().subscription_report_url);
    return url.pathname + url.search;
  };
  const open = (path: string) => ctx.app.inject({ method: 'GET', url: path });

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    const supportEmail = `report.support.${stamp}@kumo.test`;
    await ctx.database.db.execute(
      sql`insert into users (email, name, system_role, created_at) values (${supportEmail}, 'Sue Support', 'SYSTEM_SUPPORT', ${ctx.clock.now().toISOString()})`,
    );
    support = await logIn(ctx, supportEmail);
    owner = await signUp(ctx, `report.owner.${stamp}@example.com`, 'Olga Owner');
    ownerId = (await get(ctx, '/api/user/detail', owner.jwt)).json().userId;
  });
  afterAll(() => ctx.close());

  it('may be framed by the portal itself, while every other page keeps refusing any frame', async () => {
    const page = await open(await reportPath(owner.jwt));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.headers['content-security-policy']).not.toContain("frame-ancestors 'none'");
    for (const url of ['/api/user/detail', '/api/saas-common/help-document-links', '/dev/mailbox']) {
      expect((await open(url)).headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    }
  });

  it('made during a staff view stops working when the view ends', async () => {
    const started = await send(ctx, 'POST', `/api/admin/switch-user/${ownerId}`, undefined, support.jwt);
    expect(started.statusCode).toBe(200);
    const view = tokensOf(started);
    const path = await reportPath(view.jwt);
    expect((await open(path)).statusCode).toBe(200);
    expect((await send(ctx, 'POST', '/api/user/switch-user/end', undefined, view.jwt)).statusCode).toBe(200);
    const ended = await open(path);
    expect(ended.statusCode).toBe(401);
    expect(ended.json().errorDetails.error_code).toBe('TOKEN_EXPIRED');
    // The owner's own report address is not touched by the end of someone else's session.
    expect((await open(await reportPath(owner.jwt))).statusCode).toBe(200);
  });

  it("made during a staff view stops working when the view's 30 minutes are over, though the address itself would last longer", async () => {
    const view = tokensOf(await send(ctx, 'POST', `/api/admin/switch-user/${ownerId}`, undefined, support.jwt));
    ctx.clock.advance(10 * MINUTE);
    const path = await reportPath(view.jwt);
    ctx.clock.advance(19 * MINUTE);
    expect((await open(path)).statusCode).toBe(200);
    ctx.clock.advance(2 * MINUTE);
    expect((await open(path)).statusCode).toBe(401);
  });

  it('stops working at logout of the session that made it, not at the logout of another session', async () => {
    const first = await logIn(ctx, `report.owner.${stamp}@example.com`);
    const other = await logIn(ctx, `report.owner.${stamp}@example.com`);
    const mine = await reportPath(first.jwt);
    const theirs = await reportPath(other.jwt);
    expect((await send(ctx, 'POST', '/api/user/logout', undefined, other.jwt)).statusCode).toBe(200);
    expect((await open(theirs)).statusCode).toBe(401);
    expect((await open(mine)).statusCode).toBe(200);
  });
});

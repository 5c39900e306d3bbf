import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTICE_MESSAGES } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { invitedAdmin, personOf, signedUpOwner, type AccountPerson } from '../../../test/support/account-people.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, logIn, post, send, startTestApp, tokensOf, type TestContext, type Tokens } from '../../../test/support/harness.js';
import { insertStaff } from '../../../test/support/staff.js';

const kinds = await databaseKinds();

/** The bell's calls: each person reads and marks only their own notices in the account of their session. */
describe.each(kinds)('notifications on %s', (kind) => {
  let ctx: TestContext;
  const stamp = Date.now();
  let owner: AccountPerson;
  let admin: AccountPerson;
  let other: AccountPerson;
  let support: Tokens;

  /** A notice to one person, a minute after the last. */
  let counter = 0;
  async function notice(to: AccountPerson, title = `Notice ${++counter}`): Promise<void> {
    ctx.clock.advance(MINUTE);
    const written = await ctx.services.notices.write({
      accountId: to.accountId,
      kind: 'RUNWAY',
      title,
      body: `${title} body`,
      link: '/subscriptions',
      key: `test:${title}:${counter}`,
      recipientUserIds: [to.userId],
    });
    expect(written).toBe(1);
  }

  const list = (who: Tokens, query = '') => get(ctx, `/api/user/notifications${query}`, who.jwt);
  const markRead = (who: Tokens, body: unknown) => post(ctx, '/api/user/notifications/read', body, who.jwt);

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    ctx.clock.set('2026-06-01T00:00:00Z');
    owner = await signedUpOwner(ctx, `bell.owner.${stamp}@example.com`, 'Olive Owner');
    admin = await personOf(ctx, await invitedAdmin(ctx, owner.tokens.jwt, `bell.admin.${stamp}@example.com`, 'Adam Admin'));
    other = await signedUpOwner(ctx, `bell.other.${stamp}@example.com`, 'Otto Other');
    const supportEmail = `bell.support.${stamp}@kumo.test`;
    await insertStaff(ctx, supportEmail, 'Sue Support', 'SYSTEM_SUPPORT');
    support = await logIn(ctx, supportEmail);
  });
  afterAll(() => ctx.close());

  it('answers an empty page before any notice', async () => {
    const response = await list(owner.tokens);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ content: [], totalPages: 0, unread: 0 });
  });

  it('lists newest first, in pages, with the unread count', async () => {
    for (const title of ['First', 'Second', 'Third']) await notice(owner, title);
    const first = (await list(owner.tokens, '?page=0&size=2')).json();
    expect(first.totalPages).toBe(2);
    expect(first.unread).toBe(3);
    expect(first.content.map((n: { title: string }) => n.title)).toEqual(['Third', 'Second']);
    expect(first.content[0]).toEqual({
      id: expect.any(String),
      kind: 'RUNWAY',
      title: 'Third',
      body: 'Third body',
      link: '/subscriptions',
      created_at: ctx.clock.now().toISOString(),
      read_at: null,
    });
    const second = (await list(owner.tokens, '?page=1&size=2')).json();
    expect(second.content.map((n: { title: string }) => n.title)).toEqual(['First']);
  });

  it('refuses a bad page or a read call without ids or all, in field_errors', async () => {
    const badSize = await list(owner.tokens, '?size=0');
    expect(badSize.statusCode).toBe(400);
    expect(badSize.json().field_errors).toHaveProperty('size');
    for (const body of [{}, { ids: [] }, { all: false }, { ids: ['x'] }, { ids: [crypto.randomUUID()], all: true }]) {
      const response = await markRead(owner.tokens, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json().field_errors ?? {}).length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect((await markRead(owner.tokens, {})).json().field_errors).toEqual({ ids: NOTICE_MESSAGES.readTargetRequired });
    expect((await markRead(owner.tokens, { ids: ['x'] })).json().field_errors['ids.0']).toBe(NOTICE_MESSAGES.readIdInvalid);
  });

  it("marks the caller's own notices read by id, and ignores another person's", async () => {
    await notice(admin, 'For the admin');
    const adminNotice = (await list(admin.tokens)).json().content[0];
    const mine = (await list(owner.tokens)).json().content;
    // The owner does not see the admin's notice, nor can they mark it.
    expect(mine.map((n: { id: string }) => n.id)).not.toContain(adminNotice.id);

    const response = await markRead(owner.tokens, { ids: [mine[0].id, adminNotice.id] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: NOTICE_MESSAGES.markedRead, marked: 1, unread: 2 });
    const after = (await list(owner.tokens)).json();
    expect(after.content[0].read_at).toBe(ctx.clock.now().toISOString());
    expect(after.content[1].read_at).toBeNull();
    const adminAfter = (await list(admin.tokens)).json();
    expect(adminAfter.unread).toBe(1);
    expect(adminAfter.content[0].read_at).toBeNull();
    // Marking again changes nothing.
    expect((await markRead(owner.tokens, { ids: [mine[0].id] })).json().marked).toBe(0);
  });

  it("marks all of the caller's notices read, and no one else's", async () => {
    const response = await markRead(owner.tokens, { all: true });
    expect(response.json()).toMatchObject({ marked: 2, unread: 0 });
    expect((await list(owner.tokens)).json().unread).toBe(0);
    expect((await list(admin.tokens)).json().unread).toBe(1);
  });

  it("shows another account's owner none of the account's notices", async () => {
    await notice(owner, 'Owner only');
    const seen = (await list(other.tokens)).json();
    expect(seen).toEqual({ content: [], totalPages: 0, unread: 0 });
    const ownerNotice = (await list(owner.tokens)).json().content[0];
    expect((await markRead(other.tokens, { ids: [ownerNotice.id] })).json().marked).toBe(0);
    expect((await markRead(other.tokens, { all: true })).json().marked).toBe(0);
    expect((await list(owner.tokens)).json().unread).toBe(1);
  });

  it('writes a notice once per key and person, however often it is written', async () => {
    const draft = { accountId: owner.accountId, kind: 'CREDIT_EXPIRY' as const, title: 'Once', body: 'Once only', key: `once:${stamp}` };
    expect(await ctx.services.notices.write(draft)).toBe(1);
    expect(await ctx.services.notices.write(draft)).toBe(0);
    const titles = (await list(owner.tokens, '?size=100')).json().content.map((n: { title: string }) => n.title);
    expect(titles.filter((t: string) => t === 'Once')).toHaveLength(1);
  });

  it("lets staff viewing the customer read the owner's notices but not mark them, and gives staff none of their own", async () => {
    const viewing = tokensOf(await send(ctx, 'POST', `/api/admin/switch-user/${owner.userId}`, undefined, support.jwt));
    const seen = await list(viewing);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().unread).toBe(2);
    const refused = await markRead(viewing, { all: true });
    expect(refused.statusCode).toBe(403);
    expect(errorCode(refused)).toBe('READ_ONLY_VIEW');
    expect((await list(owner.tokens)).json().unread).toBe(2);
    // Staff signed in to the admin area work in no account.
    expect((await list(support)).statusCode).toBe(403);
    // Not signed in.
    expect((await get(ctx, '/api/user/notifications')).statusCode).toBe(401);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { DAY } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import {
  errorCode,
  get,
  logIn,
  post,
  send,
  signUp,
  startTestApp,
  tokensOf,
  type TestContext,
  type Tokens,
  errorDetail,
} from '../../../test/support/harness.js';

const kinds = await databaseKinds();
let counter = 0;
const freshEmail = (label: string) => `${label}${++counter}.${Date.now()}@example.com`;

/** The invitation link's token from the newest mail to `email`. */
async function invitationToken(ctx: TestContext, email: string): Promise<string> {
  const mail = (await ctx.services.mail.listRecent(50)).find((row) => row.toAddress === email);
  const token = mail?.textBody.match(/\/invite\/accept\?token=([\w-]+)/)?.[1];
  if (!token) throw new Error(`no invitation mail for ${email}`);
  expect(mail?.htmlBody).toContain(token);
  return token;
}

describe.each(kinds)('account users on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  async function invite(owner: Tokens, email: string, name = 'Ivy Invited') {
    return post(ctx, '/api/user/invite', { invited_user_id: email, invited_user_name: name, role: 'ACCOUNT_ADMIN' }, owner.jwt);
  }

  it('an owner invites an admin by e-mail; the link signs the new person in to that account', async () => {
    const ownerEmail = freshEmail('owner');
    const owner = await signUp(ctx, ownerEmail, 'Olive Owner');
    const email = freshEmail('ivy');
    const invited = await invite(owner, email);
    expect(invited.statusCode).toBe(200);
    expect(invited.json().invitation_id).toMatch(/^[0-9a-f-]{36}$/);

    const accepted = await post(ctx, '/api/user/invite/accept', { token: await invitationToken(ctx, email) });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ role: 'ACCOUNT_ADMIN', sign_up: true });
    const detail = (await get(ctx, '/api/user/detail', tokensOf(accepted).jwt)).json();
    expect(detail).toMatchObject({ userName: 'Ivy Invited', emailId: email, ownerEmailId: ownerEmail, role: 'ACCOUNT_ADMIN' });

    const list = await get(ctx, '/api/account/users', owner.jwt);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({ email_id: ownerEmail, user_name: 'Olive Owner', role: 'ACCOUNT_OWNER', subscription: [] }),
      expect.objectContaining({ email_id: email, user_name: 'Ivy Invited', role: 'ACCOUNT_ADMIN' }),
    ]);
  });

  it('an invitation works once and expires after 7 days', async () => {
    const owner = await signUp(ctx, freshEmail('owner'));
    const used = freshEmail('used');
    await invite(owner, used);
    const token = await invitationToken(ctx, used);
    expect((await post(ctx, '/api/user/invite/accept', { token })).statusCode).toBe(200);
    const again = await post(ctx, '/api/user/invite/accept', { token });
    expect(again.statusCode).toBe(422);
    expect(again.json().errorDetails).toEqual(errorDetail('INVITATION_INVALID', MESSAGES.accessExpired));

    const late = freshEmail('late');
    await invite(owner, late);
    const lateToken = await invitationToken(ctx, late);
    ctx.clock.advance(7 * DAY + 1000);
    expect(errorCode(await post(ctx, '/api/user/invite/accept', { token: lateToken }))).toBe('INVITATION_INVALID');
    expect(errorCode(await post(ctx, '/api/user/invite/accept', { token: 'made-up' }))).toBe('INVITATION_INVALID');
  });

  it('refuses to invite a member twice and a Cluster Member without subscriptions', async () => {
    const ownerEmail = freshEmail('owner');
    const owner = await signUp(ctx, ownerEmail);
    const self = await invite(owner, ownerEmail);
    expect(self.statusCode).toBe(409);
    expect(self.json().errorDetails).toEqual(errorDetail('ALREADY_MEMBER', MESSAGES.alreadyMember));

    const member = await post(
      ctx,
      '/api/user/invite',
      { invited_user_id: freshEmail('cm'), invited_user_name: 'Cal Member', role: 'CLUSTER_MEMBER' },
      owner.jwt,
    );
    expect(member.statusCode).toBe(400);
    expect(member.json().field_errors).toEqual({ subscription_ids: MESSAGES.selectSubscription });

    const foreign = await post(
      ctx,
      '/api/user/invite',
      {
        invited_user_id: freshEmail('cm'),
        invited_user_name: 'Cal Member',
        role: 'CLUSTER_MEMBER',
        subscription_ids: ['6f1c1b7e-6a7e-4c59-9f44-2a6f0c3f3e11'],
      },
      owner.jwt,
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().field_errors).toEqual({ subscription_ids: MESSAGES.selectSubscription });
  });

  it('looks up the full name of a registered e-mail', async () => {
    const known = freshEmail('known');
    await signUp(ctx, known, 'Kira Known');
    const owner = await signUp(ctx, freshEmail('owner'));
    const found = await get(ctx, `/api/user/check-user?email_id=${encodeURIComponent(known)}`, owner.jwt);
    expect(found.json()).toEqual({ data: 'Kira Known' });
    const missing = await get(ctx, `/api/user/check-user?email_id=${encodeURIComponent(freshEmail('nobody'))}`, owner.jwt);
    expect(missing.statusCode).toBe(404);
    expect(errorCode(missing)).toBe('USER_NOT_FOUND');
    expect((await get(ctx, '/api/user/check-user?email_id=nope', owner.jwt)).statusCode).toBe(400);
  });

  it('removes a member, never the owner or oneself, and ends the removed person’s sessions there', async () => {
    const ownerEmail = freshEmail('owner');
    const owner = await signUp(ctx, ownerEmail);
    const adminEmail = freshEmail('admin');
    await invite(owner, adminEmail);
    const admin = tokensOf(await post(ctx, '/api/user/invite/accept', { token: await invitationToken(ctx, adminEmail) }));

    const removeOwner = await send(ctx, 'PUT', '/api/account/delete-user', { email_id: ownerEmail }, admin.jwt);
    expect(removeOwner.statusCode).toBe(403);
    expect(removeOwner.json().errorDetails).toEqual(errorDetail('FORBIDDEN', MESSAGES.removeUserRefused));
    expect((await send(ctx, 'PUT', '/api/account/delete-user', { email_id: adminEmail }, admin.jwt)).statusCode).toBe(403);
    expect((await send(ctx, 'PUT', '/api/account/delete-user', { email_id: ownerEmail }, owner.jwt)).statusCode).toBe(403);

    const removed = await send(ctx, 'PUT', '/api/account/delete-user', { email_id: adminEmail }, owner.jwt);
    expect(removed.statusCode).toBe(200);
    expect((await get(ctx, '/api/user/detail', admin.jwt)).statusCode).toBe(401);
    expect((await get(ctx, '/api/account/users', owner.jwt)).json()).toHaveLength(1);
  });

  it('switches a person between the accounts they belong to', async () => {
    const ownerEmail = freshEmail('owner');
    const owner = await signUp(ctx, ownerEmail);
    const personEmail = freshEmail('both');
    const person = await signUp(ctx, personEmail, 'Bo Both');
    await invite(owner, personEmail, 'Bo Both');
    expect((await post(ctx, '/api/user/invite/accept', { token: await invitationToken(ctx, personEmail) })).json().sign_up).toBe(false);

    const before = (await get(ctx, '/api/user/detail', person.jwt)).json();
    expect(before.accounts).toHaveLength(2);
    const target = before.accounts.find((account: { logged_in: boolean }) => !account.logged_in);
    const switchTo = (accountId: string, tokens: Tokens, refreshHeader: string | undefined) =>
      send(
        ctx,
        'POST',
        '/api/user/switch-account',
        { switching_account_id: accountId },
        tokens.jwt,
        refreshHeader === undefined ? {} : { 'refresh-token': refreshHeader },
      );

    const missing = await switchTo(target.account_id, person, undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errorDetails.error_message).toBe(MESSAGES.refreshTokenMissing);
    const wrong = await switchTo(target.account_id, person, 'not-the-token');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errorDetails.error_message).toBe(MESSAGES.refreshInvalid);
    const notMine = await switchTo('6f1c1b7e-6a7e-4c59-9f44-2a6f0c3f3e11', person, person.refresh);
    expect(notMine.statusCode).toBe(404);
    expect(notMine.json().errorDetails.error_message).toBe(MESSAGES.accountSwitchRoleMappingNotFound);

    const switched = await switchTo(target.account_id, person, person.refresh);
    expect(switched.statusCode).toBe(200);
    expect(switched.json()).toEqual({ data: MESSAGES.accountSwitched });
    const after = (await get(ctx, '/api/user/detail', tokensOf(switched).jwt)).json();
    expect(after).toMatchObject({ role: 'ACCOUNT_ADMIN', ownerEmailId: ownerEmail });
    expect(after.accounts.find((account: { logged_in: boolean }) => account.logged_in).account_id).toBe(target.account_id);
    expect((await get(ctx, '/api/user/detail', person.jwt)).statusCode).toBe(401);
  });

  it('keeps every account to itself: another account sees and removes nothing', async () => {
    const first = await signUp(ctx, freshEmail('first'));
    const memberEmail = freshEmail('member');
    await invite(first, memberEmail);
    await post(ctx, '/api/user/invite/accept', { token: await invitationToken(ctx, memberEmail) });
    const second = await signUp(ctx, freshEmail('second'));

    const seen = (await get(ctx, '/api/account/users', second.jwt)).json();
    expect(seen.map((user: { email_id: string }) => user.email_id)).not.toContain(memberEmail);
    expect(seen).toHaveLength(1);
    const removal = await send(ctx, 'PUT', '/api/account/delete-user', { email_id: memberEmail }, second.jwt);
    expect(removal.statusCode).toBe(404);
    expect((await get(ctx, '/api/account/users', first.jwt)).json()).toHaveLength(2);
  });

  it('lists pending invitations of the account only, and marks expired ones', async () => {
    const ownerEmail = freshEmail('owner');
    const owner = await signUp(ctx, ownerEmail);
    const waiting = freshEmail('waiting');
    const waitingId = (await invite(owner, waiting, 'Wes Waiting')).json().invitation_id;
    const joined = freshEmail('joined');
    await invite(owner, joined);
    await post(ctx, '/api/user/invite/accept', { token: await invitationToken(ctx, joined) });
    const other = await signUp(ctx, freshEmail('other'));
    await invite(other, freshEmail('theirs'));

    const listed = await get(ctx, '/api/account/invitations', owner.jwt);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([
      expect.objectContaining({
        invitation_id: waitingId,
        email_id: waiting,
        user_name: 'Wes Waiting',
        role: 'ACCOUNT_ADMIN',
        expired: false,
      }),
    ]);
    const { invited_on, expires_on } = listed.json()[0];
    expect(Date.parse(expires_on) - Date.parse(invited_on)).toBe(7 * DAY);
    expect((await get(ctx, '/api/account/invitations', other.jwt)).json()).toHaveLength(1);

    ctx.clock.advance(7 * DAY + 1000);
    const later = await logIn(ctx, ownerEmail);
    expect((await get(ctx, '/api/account/invitations', later.jwt)).json()[0].expired).toBe(true);
  });

  it('resends an invitation with a new 7-day link: the old link dies, the new one works', async () => {
    const ownerEmail = freshEmail('owner');
    const email = freshEmail('resent');
    const invitationId = (await invite(await signUp(ctx, ownerEmail), email, 'Rae Resent')).json().invitation_id;
    const oldToken = await invitationToken(ctx, email);
    ctx.clock.advance(7 * DAY + 1000);
    const owner = await logIn(ctx, ownerEmail);

    const resent = await post(ctx, `/api/user/invite/${invitationId}/resend`, {}, owner.jwt);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ message: MESSAGES.invitationResent });
    const newToken = await invitationToken(ctx, email);
    expect(newToken).not.toBe(oldToken);
    const [listed] = (await get(ctx, '/api/account/invitations', owner.jwt)).json();
    expect(listed).toMatchObject({ invitation_id: invitationId, expired: false });
    expect(Date.parse(listed.expires_on)).toBe(ctx.clock.now().getTime() + 7 * DAY);

    expect(errorCode(await post(ctx, '/api/user/invite/accept', { token: oldToken }))).toBe('INVITATION_INVALID');
    const accepted = await post(ctx, '/api/user/invite/accept', { token: newToken });
    expect(accepted.statusCode).toBe(200);
    expect((await get(ctx, '/api/account/invitations', owner.jwt)).json()).toEqual([]);
    // Accepted: nothing left to resend.
    const again = await post(ctx, `/api/user/invite/${invitationId}/resend`, {}, owner.jwt);
    expect(again.statusCode).toBe(404);
    expect(again.json().errorDetails.error_message).toBe(MESSAGES.invitationNotFound);
  });

  it('revokes an invitation: its link no longer works and it leaves the list', async () => {
    const owner = await signUp(ctx, freshEmail('owner'));
    const email = freshEmail('revoked');
    const invitationId = (await invite(owner, email)).json().invitation_id;
    const token = await invitationToken(ctx, email);

    const revoked = await send(ctx, 'DELETE', `/api/user/invite/${invitationId}`, undefined, owner.jwt);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ message: MESSAGES.invitationRevoked });
    expect((await get(ctx, '/api/account/invitations', owner.jwt)).json()).toEqual([]);
    const accept = await post(ctx, '/api/user/invite/accept', { token });
    expect(accept.statusCode).toBe(422);
    expect(errorCode(accept)).toBe('INVITATION_INVALID');
    expect((await send(ctx, 'DELETE', `/api/user/invite/${invitationId}`, undefined, owner.jwt)).statusCode).toBe(404);
    expect((await post(ctx, `/api/user/invite/${invitationId}/resend`, {}, owner.jwt)).statusCode).toBe(404);
    expect((await send(ctx, 'DELETE', '/api/user/invite/not-a-uuid', undefined, owner.jwt)).statusCode).toBe(400);
  });

  it("another account's invitation is not found: neither resent nor revoked", async () => {
    const owner = await signUp(ctx, freshEmail('owner'));
    const email = freshEmail('mine');
    const invitationId = (await invite(owner, email)).json().invitation_id;
    const token = await invitationToken(ctx, email);
    const stranger = await signUp(ctx, freshEmail('stranger'));

    const resend = await post(ctx, `/api/user/invite/${invitationId}/resend`, {}, stranger.jwt);
    expect(resend.statusCode).toBe(404);
    const revoke = await send(ctx, 'DELETE', `/api/user/invite/${invitationId}`, undefined, stranger.jwt);
    expect(revoke.statusCode).toBe(404);
    expect(revoke.json().errorDetails.error_code).toBe('NOT_FOUND');
    // Untouched: the original link still works.
    expect(await invitationToken(ctx, email)).toBe(token);
    expect((await post(ctx, '/api/user/invite/accept', { token })).statusCode).toBe(200);
  });

  it('closes the customer area to Cluster Members', async () => {
    const owner = await signUp(ctx, freshEmail('owner'));
    const memberEmail = freshEmail('cm');
    const member = await signUp(ctx, memberEmail);
    const ownerAccount = (await get(ctx, '/api/user/detail', owner.jwt)).json().accounts[0].account_id;
    const memberUser = (await get(ctx, '/api/user/detail', member.jwt)).json().userId;
    await ctx.services.accounts.addMember(ownerAccount, memberUser, 'CLUSTER_MEMBER', ctx.clock.now());
    const detail = (await get(ctx, '/api/user/detail', member.jwt)).json();
    const memberAccount = detail.accounts.find((account: { role: string }) => account.role === 'CLUSTER_MEMBER');
    const switched = await send(ctx, 'POST', '/api/user/switch-account', { switching_account_id: memberAccount.account_id }, member.jwt, {
      'refresh-token': member.refresh,
    });
    const asMember = tokensOf(switched);
    expect((await get(ctx, '/api/user/detail', asMember.jwt)).json().role).toBe('CLUSTER_MEMBER');
    const refused = await get(ctx, '/api/account/users', asMember.jwt);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errorDetails.error_message).toBe(MESSAGES.customerAreaOnly);
  });
});

import { createSubscription } from './checkout.js';
import { get, post, send, signUp, tokensOf, type TestContext, type Tokens } from './harness.js';
import { staffViewOf } from './staff.js';

export interface AccountPerson {
  tokens: Tokens;
  accountId: string;
  userId: string;
}

/** A person signed in over HTTP, with the account of their session and their user id. */
export async function personOf(ctx: TestContext, tokens: Tokens): Promise<AccountPerson> {
  const detail = (await get(ctx, '/api/user/detail', tokens.jwt)).json();
  return { tokens, accountId: detail.accounts[0].account_id, userId: detail.userId };
}

/** A customer who signs up over HTTP and owns the new account. */
export async function signedUpOwner(ctx: TestContext, email: string, name: string): Promise<AccountPerson> {
  return personOf(ctx, await signUp(ctx, email, name));
}

/** An account admin invited by the owner, signed in by accepting the mailed invitation. */
export async function invitedAdmin(ctx: TestContext, ownerJwt: string, email: string, name = 'Ada Admin'): Promise<Tokens> {
  await post(ctx, '/api/user/invite', { invited_user_id: email, invited_user_name: name, role: 'ACCOUNT_ADMIN' }, ownerJwt);
  const mail = (await ctx.services.mail.listRecent(50)).find((row) => row.toAddress === email)!;
  return tokensOf(await post(ctx, '/api/user/invite/accept', { token: mail.textBody.match(/token=([\w-]+)/)![1] }));
}

/** A person who signs up, is added to the account as a cluster member and switches to it. */
export async function memberSwitchedIn(ctx: TestContext, accountId: string, email: string) {
  const own = await personOf(ctx, await signUp(ctx, email, 'Mel Member'));
  await ctx.services.accounts.addMember(accountId, own.userId, 'CLUSTER_MEMBER', ctx.clock.now());
  const tokens = tokensOf(
    await send(ctx, 'POST', '/api/user/switch-account', { switching_account_id: accountId }, own.tokens.jwt, {
      'refresh-token': own.tokens.refresh,
    }),
  );
  return { tokens, userId: own.userId };
}

/**
 * Everyone who may knock on an account's door: an admin (by invitation), a cluster member switched in, a support
 * staff member viewing as the owner, and the owner of another account.
 */
export async function peopleAround(ctx: TestContext, owner: AccountPerson, tag: string) {
  const admin = await invitedAdmin(ctx, owner.tokens.jwt, `people.admin.${tag}@example.com`);

  const { tokens: member } = await memberSwitchedIn(ctx, owner.accountId, `people.member.${tag}@example.com`);
  const staffView = await staffViewOf(ctx, owner.userId);
  const stranger = await signUp(ctx, `people.stranger.${tag}@example.com`, 'Sam Stranger');
  return { admin, member, staffView, stranger };
}

/** An owner's new subscription with everyone around the account (`peopleAround`), for calls about one subscription. */
export async function subscriptionAndPeople(ctx: TestContext, tag: string, subscriptionName: string) {
  const account = await signedUpOwner(ctx, `${tag}.owner@example.com`, 'Olga Owner');
  const people = await peopleAround(ctx, account, tag);
  return { owner: account.tokens, ...people, subscriptionId: await createSubscription(ctx, account.tokens.jwt, subscriptionName) };
}

import { get, post, send, signUp, tokensOf, type TestContext, type Tokens } from './harness.js';
import { staffViewOf } from './manager-access.js';

/**
 * Everyone who may knock on an account's door: an admin (by invitation), a cluster member switched in, a support
 * staff member viewing as the owner, and the owner of another account.
 */
export async function peopleAround(ctx: TestContext, owner: { tokens: Tokens; accountId: string; userId: string }, tag: string) {
  const adminEmail = `people.admin.${tag}@example.com`;
  await post(
    ctx,
    '/api/user/invite',
    { invited_user_id: adminEmail, invited_user_name: 'Ada Admin', role: 'ACCOUNT_ADMIN' },
    owner.tokens.jwt,
  );
  const mail = (await ctx.services.mail.listRecent(50)).find((row) => row.toAddress === adminEmail)!;
  const admin = tokensOf(await post(ctx, '/api/user/invite/accept', { token: mail.textBody.match(/token=([\w-]+)/)![1] }));

  const memberOwn = await signUp(ctx, `people.member.${tag}@example.com`, 'Mel Member');
  const memberId: string = (await get(ctx, '/api/user/detail', memberOwn.jwt)).json().userId;
  await ctx.services.accounts.addMember(owner.accountId, memberId, 'CLUSTER_MEMBER', ctx.clock.now());
  const member = tokensOf(
    await send(ctx, 'POST', '/api/user/switch-account', { switching_account_id: owner.accountId }, memberOwn.jwt, {
      'refresh-token': memberOwn.refresh,
    }),
  );
  const staffView = await staffViewOf(ctx, owner.userId);
  const stranger = await signUp(ctx, `people.stranger.${tag}@example.com`, 'Sam Stranger');
  return { admin, member, staffView, stranger };
}

import { get, logIn, post, send, signUp, tokensOf, type TestContext, type Tokens } from './harness.js';
import type { clusterSteps } from './clusters.js';
import { insertStaff } from './staff.js';

export const managerAccessPath = (id: string) => `/api/cluster/manager-access/${id}`;

/**
 * An owner with a cluster (online when asked), an account admin (by invitation) and a cluster member signed in to the
 * account, with everyone's user id.
 */
export async function accountWithPeople(ctx: TestContext, steps: ReturnType<typeof clusterSteps>, options: { online?: boolean } = {}) {
  const owner = await steps.customer();
  const clusterId = options.online
    ? await steps.deployOnline(owner.jwt, owner.subscriptionId)
    : await steps.createCluster(owner.jwt, owner.subscriptionId);
  const me = (await get(ctx, '/api/user/detail', owner.jwt)).json();
  const accountId: string = me.accounts[0].account_id;

  const adminEmail = steps.freshEmail();
  await post(ctx, '/api/user/invite', { invited_user_id: adminEmail, invited_user_name: 'Ada Admin', role: 'ACCOUNT_ADMIN' }, owner.jwt);
  const mail = (await ctx.services.mail.listRecent(50)).find((row) => row.toAddress === adminEmail)!;
  const admin = tokensOf(await post(ctx, '/api/user/invite/accept', { token: mail.textBody.match(/token=([\w-]+)/)![1] }));

  const memberEmail = steps.freshEmail();
  const memberOwn = await signUp(ctx, memberEmail, 'Mel Member');
  const memberId: string = (await get(ctx, '/api/user/detail', memberOwn.jwt)).json().userId;
  await ctx.services.accounts.addMember(accountId, memberId, 'CLUSTER_MEMBER', ctx.clock.now());
  const member = tokensOf(
    await send(ctx, 'POST', '/api/user/switch-account', { switching_account_id: accountId }, memberOwn.jwt, {
      'refresh-token': memberOwn.refresh,
    }),
  );
  const ids = Object.fromEntries(
    (await get(ctx, managerAccessPath(clusterId), owner.jwt))
      .json()
      .users.map((user: { email_id: string; user_id: string }) => [user.email_id, user.user_id]),
  ) as Record<string, string>;
  return { owner, clusterId, ownerId: me.userId as string, adminEmail, admin, adminId: ids[adminEmail]!, memberEmail, member, memberId };
}

/** A support staff member viewing the customer's console as its owner (read-only). */
export async function staffViewOf(ctx: TestContext, ownerId: string): Promise<Tokens> {
  const supportEmail = `access.support.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@kumo.test`;
  await insertStaff(ctx, supportEmail, 'Sue Support', 'SYSTEM_SUPPORT');
  const support: Tokens = await logIn(ctx, supportEmail);
  return tokensOf(await send(ctx, 'POST', `/api/admin/switch-user/${ownerId}`, undefined, support.jwt));
}

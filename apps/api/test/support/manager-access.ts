import { get, type TestContext } from './harness.js';
import type { clusterSteps } from './clusters.js';
import { invitedAdmin, memberSwitchedIn } from './account-people.js';

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
  const admin = await invitedAdmin(ctx, owner.jwt, adminEmail);

  const memberEmail = steps.freshEmail();
  const { tokens: member, userId: memberId } = await memberSwitchedIn(ctx, accountId, memberEmail);
  const ids = Object.fromEntries(
    (await get(ctx, managerAccessPath(clusterId), owner.jwt))
      .json()
      .users.map((user: { email_id: string; user_id: string }) => [user.email_id, user.user_id]),
  ) as Record<string, string>;
  return { owner, clusterId, ownerId: me.userId as string, adminEmail, admin, adminId: ids[adminEmail]!, memberEmail, member, memberId };
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, get, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';
import { accountWithPeople, managerAccessPath } from '../../../test/support/manager-access.js';
import { staffViewOf } from '../../../test/support/staff.js';

/**
 * Manager access levels per cluster and person (spec sections 5 and 6): the account's owner and admins read and
 * change them; a member, another account and a staff member viewing the customer's console cannot change them; a
 * cluster always keeps someone with administrative privileges.
 */
const kinds = await databaseKinds();

describe.each(kinds)('manager access levels per cluster on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
  });
  afterAll(() => ctx.close());
  const steps = clusterSteps(() => ctx);
  const { customer, createCluster } = steps;
  const path = managerAccessPath;
  const put = (id: string, changes: { user_id: string; access_level: string }[], jwt: string) =>
    send(ctx, 'PUT', path(id), { changes }, jwt);
  const levels = (body: { users: { email_id: string; access_level: string }[] }) =>
    Object.fromEntries(body.users.map((user) => [user.email_id, user.access_level]));

  const account = () => accountWithPeople(ctx, steps);

  it("lists every person of the account with their role's level until someone changes it, and the caller's own", async () => {
    const a = await account();
    const read = await get(ctx, path(a.clusterId), a.owner.jwt);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toEqual({
      deployment_id: a.clusterId,
      users: [
        { user_id: a.ownerId, user_name: 'Cleo Cluster', email_id: a.owner.email, role: 'ACCOUNT_OWNER', access_level: 'FULL_KMUSER' },
        { user_id: a.adminId, user_name: 'Ada Admin', email_id: a.adminEmail, role: 'ACCOUNT_ADMIN', access_level: 'FULL_ADMIN' },
        { user_id: a.memberId, user_name: 'Mel Member', email_id: a.memberEmail, role: 'CLUSTER_MEMBER', access_level: 'NO_ADMIN_ACCESS' },
      ],
      my_access_level: 'FULL_KMUSER',
    });
    expect((await get(ctx, path(a.clusterId), a.admin.jwt)).json().my_access_level).toBe('FULL_ADMIN');
  });

  it('lets an admin change levels per cluster, writes who did it in the audit log, and leaves other clusters alone', async () => {
    const a = await account();
    const other = await createCluster(a.owner.jwt, a.owner.subscriptionId, { cluster_name: 'Other_Cluster', cidr: '10.1.0.0/16' });
    const changed = await put(
      a.clusterId,
      [
        { user_id: a.memberId, access_level: 'LIMITED' },
        { user_id: a.ownerId, access_level: 'LIMITED' },
      ],
      a.admin.jwt,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(levels(changed.json())).toEqual({ [a.owner.email]: 'LIMITED', [a.adminEmail]: 'FULL_ADMIN', [a.memberEmail]: 'LIMITED' });
    expect((await get(ctx, path(a.clusterId), a.owner.jwt)).json().my_access_level).toBe('LIMITED');
    expect(levels((await get(ctx, path(other), a.owner.jwt)).json())[a.owner.email]).toBe('FULL_KMUSER');

    const logs = (await get(ctx, `/api/cluster/get-audit-logs/${a.clusterId}`, a.owner.jwt)).json().page_content.content;
    expect(logs[0]).toMatchObject({
      event: 'CLUSTER_MANAGER_ACCESS_CHANGED',
      caused_by: a.adminEmail,
      description: `Manager access of Sales_Cluster-1 changed by ${a.adminEmail}: ${a.memberEmail} No admin access to Limited, ${a.owner.email} Full kmuser to Limited.`,
    });
  });

  it('refuses a change that would leave nobody with administrative privileges, and says so', async () => {
    const a = await account();
    const refused = await put(
      a.clusterId,
      [
        { user_id: a.ownerId, access_level: 'LIMITED' },
        { user_id: a.adminId, access_level: 'NO_ADMIN_ACCESS' },
      ],
      a.owner.jwt,
    );
    expect(refused.statusCode).toBe(422);
    expect(errorMessage(refused)).toBe(CLUSTER_MESSAGES.managerAccessOneAdmin);
    expect(levels((await get(ctx, path(a.clusterId), a.owner.jwt)).json())[a.owner.email]).toBe('FULL_KMUSER');

    // One at a time does not get round it: the second change finds the first.
    expect((await put(a.clusterId, [{ user_id: a.ownerId, access_level: 'LIMITED' }], a.owner.jwt)).statusCode).toBe(200);
    const last = await put(a.clusterId, [{ user_id: a.adminId, access_level: 'LIMITED' }], a.owner.jwt);
    expect(errorMessage(last)).toBe(CLUSTER_MESSAGES.managerAccessOneAdmin);
    // Full kmuser keeps administrative privileges too.
    const handedOver = await put(
      a.clusterId,
      [
        { user_id: a.adminId, access_level: 'LIMITED' },
        { user_id: a.memberId, access_level: 'FULL_KMUSER' },
      ],
      a.owner.jwt,
    );
    expect(handedOver.statusCode, handedOver.body).toBe(200);
  });

  it('gives the owner the kmuser back when every administrator has left the account', async () => {
    const a = await account();
    await put(a.clusterId, [{ user_id: a.ownerId, access_level: 'NO_ADMIN_ACCESS' }], a.owner.jwt);
    const removed = await send(ctx, 'PUT', '/api/account/delete-user', { email_id: a.adminEmail }, a.owner.jwt);
    expect(removed.statusCode, removed.body).toBe(200);
    const read = (await get(ctx, path(a.clusterId), a.owner.jwt)).json();
    expect(levels(read)).toEqual({ [a.owner.email]: 'FULL_KMUSER', [a.memberEmail]: 'NO_ADMIN_ACCESS' });
  });

  it('refuses unknown people, the same person twice, levels that do not exist and changes that change nothing', async () => {
    const a = await account();
    const stranger = (await get(ctx, '/api/user/detail', (await customer()).jwt)).json().userId;
    const unknown = await put(a.clusterId, [{ user_id: stranger, access_level: 'LIMITED' }], a.owner.jwt);
    expect(unknown.statusCode).toBe(400);
    expect(errorMessage(unknown)).toBe(CLUSTER_MESSAGES.managerAccessUserUnknown);
    const twice = await put(
      a.clusterId,
      [
        { user_id: a.memberId, access_level: 'LIMITED' },
        { user_id: a.memberId, access_level: 'FULL_ADMIN' },
      ],
      a.owner.jwt,
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.json().field_errors).toMatchObject({ changes: CLUSTER_MESSAGES.managerAccessDuplicate });
    const badLevel = await put(a.clusterId, [{ user_id: a.memberId, access_level: 'ROOT' }], a.owner.jwt);
    expect(badLevel.statusCode).toBe(400);
    expect(JSON.stringify(badLevel.json().field_errors)).toContain(CLUSTER_MESSAGES.managerAccessLevelInvalid);
    const same = await put(a.clusterId, [{ user_id: a.adminId, access_level: 'FULL_ADMIN' }], a.owner.jwt);
    expect(same.statusCode).toBe(422);
    expect(errorMessage(same)).toBe(CLUSTER_MESSAGES.managerAccessNothingChanged);
  });

  it('keeps members out, shows another account nothing, and lets a staff view read but not change', async () => {
    const a = await account();
    expect((await get(ctx, path(a.clusterId), a.member.jwt)).statusCode).toBe(403);
    expect((await put(a.clusterId, [{ user_id: a.memberId, access_level: 'FULL_ADMIN' }], a.member.jwt)).statusCode).toBe(403);

    const other = await customer();
    const seen = await get(ctx, path(a.clusterId), other.jwt);
    expect(seen.statusCode).toBe(404);
    expect(errorCode(seen)).toBe('NOT_FOUND');
    expect((await put(a.clusterId, [{ user_id: a.memberId, access_level: 'LIMITED' }], other.jwt)).statusCode).toBe(404);

    const viewing = await staffViewOf(ctx, a.ownerId);
    const read = await get(ctx, path(a.clusterId), viewing.jwt);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().users).toHaveLength(3);
    const refused = await put(a.clusterId, [{ user_id: a.memberId, access_level: 'LIMITED' }], viewing.jwt);
    expect(refused.statusCode).toBe(403);
    expect(levels((await get(ctx, path(a.clusterId), a.owner.jwt)).json())[a.memberEmail]).toBe('NO_ADMIN_ACCESS');
  });
});

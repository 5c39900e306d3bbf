import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NETWORK_ACCESS_LIMITS, NETWORK_ACCESS_MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, post, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';
import { accountWithPeople } from '../../../test/support/manager-access.js';
import { staffViewOf } from '../../../test/support/staff.js';

/**
 * Network access per cluster: the owner and admins (and WRITE tokens) read and replace the list, READ tokens and a
 * staff member's view only read it, a member is refused it as every cluster setting, another account finds nothing;
 * every change is in the audit log with who made it; addresses are kept in canonical form; a new cluster takes its
 * list at creation (anywhere when the request says nothing, as before).
 */
const kinds = await databaseKinds();
const path = (id: string) => `/api/cluster/network-access/${id}`;
const TWO_RANGES = {
  allow_anywhere: false,
  allowed: [
    { cidr: '203.0.113.7', description: 'Office' },
    { cidr: '2001:DB8:0:0:1::/48', description: 'VPN' },
  ],
};

describe.each(kinds)('network access per cluster on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
  });
  afterAll(() => ctx.close());
  const steps = clusterSteps(() => ctx);
  const put = (id: string, body: unknown, jwt: string) => send(ctx, 'PUT', path(id), body, jwt);
  const withToken = (method: 'GET' | 'PUT', url: string, token: string, body?: unknown) =>
    ctx.app.inject({ method, url, payload: body as object | undefined, headers: { authorization: `Bearer ${token}` } });
  const apiToken = async (jwt: string, scope: 'READ' | 'WRITE') =>
    (await post(ctx, '/api/user/api-tokens', { name: `net ${scope}`, scope, expires_in_days: 7, allowed_ips: [] }, jwt)).json()
      .token as string;
  const auditOf = async (id: string, jwt: string) =>
    (await get(ctx, `/api/cluster/get-audit-logs/${id}`, jwt)).json().page_content.content as {
      event: string;
      description: string;
      caused_by: string;
    }[];

  it('is open to anywhere for a new cluster, and for a cluster made before the list existed', async () => {
    const owner = await steps.customer();
    const id = await steps.createCluster(owner.jwt, owner.subscriptionId);
    const read = await get(ctx, path(id), owner.jwt);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({ deployment_id: id, allow_anywhere: true, allowed: [], updated_by: owner.email });
    expect(await ctx.services.clusters.allowsAddress(id, '198.51.100.1')).toBe(true);

    await ctx.database.db.execute(sql`delete from cluster_network_access where cluster_id = ${id}`);
    expect((await get(ctx, path(id), owner.jwt)).json()).toEqual({
      deployment_id: id,
      allow_anywhere: true,
      allowed: [],
      updated_at: null,
      updated_by: null,
    });
    expect(await ctx.services.clusters.allowsAddress(id, '198.51.100.1')).toBe(true);
  });

  it('keeps the list in canonical form, says who changed it in the audit log, and enforces it', async () => {
    const owner = await steps.customer();
    const id = await steps.createCluster(owner.jwt, owner.subscriptionId);
    const changed = await put(id, TWO_RANGES, owner.jwt);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({
      deployment_id: id,
      allow_anywhere: false,
      allowed: [
        { cidr: '203.0.113.7/32', description: 'Office' },
        { cidr: '2001:db8::/48', description: 'VPN' },
      ],
      updated_at: ctx.clock.now().toISOString(),
      updated_by: owner.email,
    });
    expect((await get(ctx, path(id), owner.jwt)).json()).toEqual(changed.json());
    expect((await auditOf(id, owner.jwt))[0]).toMatchObject({
      event: 'CLUSTER_NETWORK_ACCESS_CHANGED',
      caused_by: owner.email,
      description: `Network access of Sales_Cluster-1 changed by ${owner.email}: anywhere → 2 ranges.`,
    });

    const allows = (address: string) => ctx.services.clusters.allowsAddress(id, address);
    expect(await allows('203.0.113.7')).toBe(true);
    expect(await allows('::ffff:203.0.113.7')).toBe(true);
    expect(await allows('203.0.113.8')).toBe(false);
    expect(await allows('2001:db8:0:ffff::1')).toBe(true);
    expect(await allows('2001:db9::1')).toBe(false);

    // The same list again changes nothing and writes nothing; back to anywhere is said as such.
    expect((await put(id, TWO_RANGES, owner.jwt)).statusCode).toBe(200);
    expect((await auditOf(id, owner.jwt)).filter((entry) => entry.event === 'CLUSTER_NETWORK_ACCESS_CHANGED')).toHaveLength(1);
    const opened = await put(id, { ...TWO_RANGES, allow_anywhere: true }, owner.jwt);
    expect(opened.json().allowed).toHaveLength(2);
    expect((await auditOf(id, owner.jwt))[0]!.description).toBe(
      `Network access of Sales_Cluster-1 changed by ${owner.email}: 2 ranges → anywhere.`,
    );
    expect(await allows('198.51.100.1')).toBe(true);
  });

  it.each([
    [
      'an address that is none',
      { allow_anywhere: false, allowed: [{ cidr: '203.0.113.300' }] },
      'allowed.0.cidr',
      NETWORK_ACCESS_MESSAGES.cidrInvalid,
    ],
    [
      'a prefix too long',
      { allow_anywhere: false, allowed: [{ cidr: '10.0.0.0/33' }] },
      'allowed.0.cidr',
      NETWORK_ACCESS_MESSAGES.cidrInvalid,
    ],
    ['an empty address', { allow_anywhere: false, allowed: [{ cidr: ' ' }] }, 'allowed.0.cidr', NETWORK_ACCESS_MESSAGES.cidrRequired],
    [
      'a description over 100 characters',
      {
        allow_anywhere: false,
        allowed: [{ cidr: '203.0.113.7', description: 'x'.repeat(NETWORK_ACCESS_LIMITS.descriptionMaxLength + 1) }],
      },
      'allowed.0.description',
      NETWORK_ACCESS_MESSAGES.descriptionTooLong,
    ],
    [
      'more than 50 entries',
      { allow_anywhere: false, allowed: Array.from({ length: 51 }, (_, k) => ({ cidr: `198.51.100.${k}` })) },
      'allowed',
      NETWORK_ACCESS_MESSAGES.tooMany,
    ],
    [
      'the same range twice, however written',
      { allow_anywhere: false, allowed: [{ cidr: '203.0.113.7' }, { cidr: '::ffff:203.0.113.7/128' }] },
      'allowed.1.cidr',
      NETWORK_ACCESS_MESSAGES.cidrDuplicate,
    ],
    ['no range and not anywhere', { allow_anywhere: false, allowed: [] }, 'allowed', NETWORK_ACCESS_MESSAGES.listEmpty],
    ['no answer for anywhere', { allowed: [] }, 'allow_anywhere', NETWORK_ACCESS_MESSAGES.allowAnywhereRequired],
  ])('refuses %s, field by field', async (_name, body, field, message) => {
    const owner = await steps.customer();
    const id = await steps.createCluster(owner.jwt, owner.subscriptionId);
    const refused = await put(id, body, owner.jwt);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({
      errorDetails: { error_code: 'VALIDATION_FAILED', error_message: message, request_id: expect.any(String) },
      field_errors: { [field]: message },
    });
    expect((await get(ctx, path(id), owner.jwt)).json().allow_anywhere).toBe(true);
  });

  it('checks the limit again in the transaction that writes, whatever reached it', async () => {
    const owner = await steps.customer();
    const id = await steps.createCluster(owner.jwt, owner.subscriptionId);
    const me = (await get(ctx, '/api/user/detail', owner.jwt)).json();
    const caller = { accountId: me.accounts[0].account_id as string, userId: me.userId as string };
    const allowed = Array.from({ length: 51 }, (_, k) => ({ cidr: `198.51.100.${k}/32`, description: '' }));
    await expect(ctx.services.clusters.putNetworkAccess(caller, id, { allow_anywhere: false, allowed })).rejects.toMatchObject({
      statusCode: 400,
      fieldErrors: { allowed: NETWORK_ACCESS_MESSAGES.tooMany },
    });
  });

  it('lets admins and WRITE tokens change it; READ tokens and the staff view only read it; a member and another account neither', async () => {
    const a = await accountWithPeople(ctx, steps);
    const list = { allow_anywhere: false, allowed: [{ cidr: '198.51.100.0/24', description: 'Branch' }] };

    const byAdmin = await put(a.clusterId, list, a.admin.jwt);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json().updated_by).toBe(a.adminEmail);

    const write = await apiToken(a.owner.jwt, 'WRITE');
    const byToken = await withToken('PUT', path(a.clusterId), write, TWO_RANGES);
    expect(byToken.statusCode, byToken.body).toBe(200);
    expect((await auditOf(a.clusterId, a.owner.jwt))[0]!.description).toBe(
      `Network access of Sales_Cluster-1 changed by ${a.owner.email} (API token "net WRITE"): 1 range → 2 ranges.`,
    );

    const read = await apiToken(a.owner.jwt, 'READ');
    expect((await withToken('GET', path(a.clusterId), read)).json().allowed).toHaveLength(2);
    const readPut = await withToken('PUT', path(a.clusterId), read, list);
    expect([readPut.statusCode, errorCode(readPut)]).toEqual([403, 'TOKEN_SCOPE']);

    const view = await staffViewOf(ctx, a.ownerId);
    expect((await get(ctx, path(a.clusterId), view.jwt)).statusCode).toBe(200);
    const viewPut = await put(a.clusterId, list, view.jwt);
    expect([viewPut.statusCode, errorCode(viewPut)]).toEqual([403, 'READ_ONLY_VIEW']);

    expect((await get(ctx, path(a.clusterId), a.member.jwt)).statusCode).toBe(403);
    expect((await put(a.clusterId, list, a.member.jwt)).statusCode).toBe(403);

    const other = await steps.customer();
    for (const refused of [await get(ctx, path(a.clusterId), other.jwt), await put(a.clusterId, list, other.jwt)]) {
      expect([refused.statusCode, errorCode(refused)]).toEqual([404, 'NOT_FOUND']);
    }
    expect((await get(ctx, path(a.clusterId), a.owner.jwt)).json().allowed).toHaveLength(2);
  });

  it("takes a new cluster's list at creation, checked like a change, and anywhere when the request says nothing", async () => {
    const owner = await steps.customer();
    const only = await steps.createCluster(owner.jwt, owner.subscriptionId, {
      network_access: { allow_anywhere: false, allowed: [{ cidr: '203.0.113.7', description: 'This address' }] },
    });
    expect((await get(ctx, path(only), owner.jwt)).json()).toMatchObject({
      allow_anywhere: false,
      allowed: [{ cidr: '203.0.113.7/32', description: 'This address' }],
    });
    expect(await ctx.services.clusters.allowsAddress(only, '198.51.100.1')).toBe(false);

    const refused = await post(
      ctx,
      '/api/cluster/create',
      steps.body(owner.subscriptionId, {
        cluster_name: 'Refused',
        cidr: '10.9.0.0/16',
        network_access: { allow_anywhere: false, allowed: [{ cidr: 'office' }] },
      }),
      owner.jwt,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().field_errors).toEqual({ 'network_access.allowed.0.cidr': NETWORK_ACCESS_MESSAGES.cidrInvalid });
  });

  it('tells the caller their own address as the portal sees it, an IPv4 address written as IPv6 as IPv4', async () => {
    const owner = await steps.customer();
    const seen = await ctx.app.inject({
      method: 'GET',
      url: '/api/user/client-address',
      remoteAddress: '::ffff:203.0.113.9',
      headers: { authorization: `Bearer ${owner.jwt}` },
    });
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toEqual({ client_address: '203.0.113.9' });
    expect((await get(ctx, '/api/user/client-address')).statusCode).toBe(401);
  });

  it("brings the cloud's firewall to the list once the stack stands, and again from the sweep after a failure", async () => {
    const cloud = ctx.services.simulatedCloud!;
    const apply = vi.fn<(stackName: string, ingress: readonly string[] | null, region?: string) => Promise<void>>(async () => undefined);
    Object.assign(cloud, { applyNetworkAccess: apply });
    try {
      const owner = await steps.customer();
      const id = await steps.createCluster(owner.jwt, owner.subscriptionId, {
        network_access: { allow_anywhere: false, allowed: [{ cidr: '203.0.113.7' }] },
      });
      // Still deploying: the stack is made with the list, nothing to carry yet.
      await ctx.services.clusters.sweep();
      expect(apply).not.toHaveBeenCalled();
      await steps.elapse(61_000, id);
      await ctx.services.clusters.sweep();
      expect(apply).toHaveBeenCalledWith(`kumo-${id}`, ['203.0.113.7/32'], 'us-east-1');

      apply.mockClear();
      apply.mockRejectedValueOnce(new Error('throttled'));
      expect((await put(id, TWO_RANGES, owner.jwt)).statusCode).toBe(200);
      expect(apply).toHaveBeenCalledTimes(1);
      await ctx.services.clusters.sweep();
      expect(apply).toHaveBeenLastCalledWith(`kumo-${id}`, ['203.0.113.7/32', '2001:db8::/48'], 'us-east-1');
      apply.mockClear();
      await ctx.services.clusters.sweep();
      expect(apply).not.toHaveBeenCalled();

      await put(id, { ...TWO_RANGES, allow_anywhere: true }, owner.jwt);
      expect(apply).toHaveBeenLastCalledWith(`kumo-${id}`, null, 'us-east-1');
    } finally {
      Object.assign(cloud, { applyNetworkAccess: undefined });
    }
  });
});

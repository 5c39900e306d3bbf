import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MESSAGES, type ManagerAccessLevel } from '@kumo/contract';
import { MANAGER_TICKET_PARAM, readManagerTicket } from '../../adapters/cloud/index.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { TEST_TICKET_KEY, errorCode, errorMessage, get, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';
import { accountWithPeople, managerAccessPath } from '../../../test/support/manager-access.js';
import { staffViewOf } from '../../../test/support/staff.js';

/**
 * Opening Kumo Manager and the Web Portal: each person asks for a one-minute ticket of their own, which names them and
 * their level on the cluster; the simulated manager shows what that level allows. No admin access is refused the
 * manager's ticket, and the addresses the cluster list carries open nothing by themselves.
 */
const kinds = await databaseKinds();

describe.each(kinds)('manager and Web Portal tickets on %s', (kind) => {
  let ctx: TestContext;
  let a: Awaited<ReturnType<typeof accountWithPeople>>;
  const steps = clusterSteps(() => ctx);
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    a = await accountWithPeople(ctx, steps, { online: true });
  });
  afterAll(() => ctx.close());

  const ticketPath = (id: string, page?: string) => `/api/cluster/kumo/sso/${id}${page ? `?page=${page}` : ''}`;
  const setLevel = async (userId: string, level: ManagerAccessLevel) => {
    const current = (await get(ctx, managerAccessPath(a.clusterId), a.owner.jwt)).json();
    if (current.users.find((user: { user_id: string }) => user.user_id === userId).access_level === level) return;
    const changed = await send(
      ctx,
      'PUT',
      managerAccessPath(a.clusterId),
      { changes: [{ user_id: userId, access_level: level }] },
      a.owner.jwt,
    );
    expect(changed.statusCode, changed.body).toBe(200);
  };
  /** Opens an address the way the browser does: the simulated pages are served by the portal itself. */
  const open = (url: string, method: 'GET' | 'POST' = 'GET') => {
    const address = new URL(url);
    return ctx.app.inject({ method, url: address.pathname + address.search });
  };
  const ticketOf = (url: string) =>
    readManagerTicket(TEST_TICKET_KEY, new URL(url).searchParams.get(MANAGER_TICKET_PARAM) ?? '', ctx.clock.now());

  it('gives the cluster list and details the addresses without a ticket, which open nothing', async () => {
    const [listed] = (await get(ctx, '/api/cluster/view', a.owner.jwt)).json()[0].clusters;
    const details = (await get(ctx, `/api/cluster/details/${a.clusterId}?detail=CURRENT`, a.owner.jwt)).json();
    for (const url of [listed.kumo_manager_url, listed.kumo_url, details.kumo_manager_url, details.kumo_url]) {
      expect(url).toMatch(/^http:\/\/portal\.test\/sim\/kumo\/kumo-.+\/(manager|portal)\/$/);
      const refused = await open(url);
      expect(refused.statusCode).toBe(401);
      expect(refused.body).toContain('Sign-in required');
    }
  });

  it("issues the owner's Full kmuser ticket naming them, for a minute, and the manager shows every right as kmuser", async () => {
    const issued = await get(ctx, ticketPath(a.clusterId), a.owner.jwt);
    expect(issued.statusCode, issued.body).toBe(200);
    const body = issued.json();
    const expiresAt = new Date(ctx.clock.now().getTime() + 60_000);
    expect(body).toEqual({
      url: expect.stringContaining('/manager/?sso='),
      expires_at: expiresAt.toISOString(),
      access_level: 'FULL_KMUSER',
    });
    expect(ticketOf(body.url)).toEqual({
      id: expect.any(String),
      deploymentId: a.clusterId,
      page: 'manager',
      holder: { kind: 'customer', userId: a.ownerId, email: a.owner.email },
      level: 'FULL_KMUSER',
      expiresAt,
    });
    const manager = await open(body.url);
    expect(manager.statusCode).toBe(200);
    expect(manager.body).toContain(`<dt>Signed in as</dt><dd>${a.owner.email}</dd>`);
    expect(manager.body).toContain('<dt>Access level</dt><dd>Full kmuser</dd>');
    expect(manager.body).toContain('<dt>Manager account</dt><dd>kmuser</dd>');
    expect(manager.body).toContain('Manage users and security');
    expect(manager.body).not.toContain('Read-only');
    // A minute later the same address opens nothing.
    ctx.clock.advance(60_000);
    expect((await open(body.url)).statusCode).toBe(401);
  });

  it('lets a ticket in once: opened twice at once, one opens and the other is refused, and so is any later try', async () => {
    for (const page of ['manager', 'portal']) {
      const { url } = (await get(ctx, ticketPath(a.clusterId, page), a.owner.jwt)).json();
      const both = await Promise.all([open(url), open(url)]);
      expect(both.map((answer) => answer.statusCode).sort(), page).toEqual([200, 401]);
      expect(both.find((answer) => answer.statusCode === 401)!.body).toContain('Sign-in required');
      expect((await open(url)).statusCode, page).toBe(401);
    }
    // Each request gets a ticket of its own.
    const first = (await get(ctx, ticketPath(a.clusterId), a.owner.jwt)).json().url;
    const second = (await get(ctx, ticketPath(a.clusterId), a.owner.jwt)).json().url;
    expect(ticketOf(first)!.id).not.toBe(ticketOf(second)!.id);
    expect((await open(first)).statusCode).toBe(200);
    expect((await open(second)).statusCode).toBe(200);
  });

  it('refuses a personal API token the ticket, WRITE or READ, from any address, and writes nothing in the audit log', async () => {
    const audited = async () =>
      (await get(ctx, `/api/cluster/get-audit-logs/${a.clusterId}?page=0&size=100`, a.owner.jwt)).json().page_content.content.length;
    const before = await audited();
    for (const scope of ['WRITE', 'READ']) {
      const created = await send(
        ctx,
        'POST',
        '/api/user/api-tokens',
        { name: `sso-${scope}`, scope, expires_in_days: 30, allowed_ips: ['203.0.113.0/24'] },
        a.owner.jwt,
      );
      expect(created.statusCode, created.body).toBe(200);
      for (const remoteAddress of ['203.0.113.9', '198.51.100.7']) {
        const refused = await ctx.app.inject({
          method: 'GET',
          url: ticketPath(a.clusterId),
          remoteAddress,
          headers: { authorization: `Bearer ${created.json().token}` },
        });
        expect(refused.statusCode, refused.body).toBe(403);
        expect(['TOKEN_NOT_ALLOWED', 'TOKEN_IP_NOT_ALLOWED']).toContain(errorCode(refused));
        if (remoteAddress === '203.0.113.9') expect(errorCode(refused)).toBe('TOKEN_NOT_ALLOWED');
      }
    }
    expect(await audited()).toBe(before);
  });

  it("issues an admin's Full admin ticket: every right, under their own name", async () => {
    await setLevel(a.adminId, 'FULL_ADMIN');
    const body = (await get(ctx, ticketPath(a.clusterId), a.admin.jwt)).json();
    expect(body.access_level).toBe('FULL_ADMIN');
    expect(ticketOf(body.url)).toMatchObject({ holder: { kind: 'customer', userId: a.adminId, email: a.adminEmail }, level: 'FULL_ADMIN' });
    const manager = await open(body.url);
    expect(manager.statusCode).toBe(200);
    expect(manager.body).toContain('<dt>Access level</dt><dd>Full admin</dd>');
    expect(manager.body).toContain(`<dt>Manager account</dt><dd>${a.adminEmail}</dd>`);
    expect(manager.body).toContain('Change every property');
    expect(manager.body).toContain('Manage users and security');
  });

  it('issues a Limited ticket: monitoring, logs and some properties, the rest read-only, no users or security', async () => {
    await setLevel(a.adminId, 'LIMITED');
    const body = (await get(ctx, ticketPath(a.clusterId), a.admin.jwt)).json();
    expect(body.access_level).toBe('LIMITED');
    expect(ticketOf(body.url)).toMatchObject({ holder: { userId: a.adminId }, level: 'LIMITED' });
    const manager = await open(body.url);
    expect(manager.statusCode).toBe(200);
    expect(manager.body).toContain('<dt>Access level</dt><dd>Limited</dd>');
    for (const right of ['Monitor the cluster', 'View logs', 'Change some properties']) expect(manager.body).toContain(right);
    expect(manager.body).toContain('<td>Query timeout</td><td>300 seconds</td><td>Can change</td>');
    expect(manager.body).toContain('<td>Authentication</td><td>Kumo Cloud single sign-on</td><td>Read-only</td>');
    expect(manager.body).not.toContain('Users and security');
    expect(manager.body).not.toContain('Change every property');
  });

  it('refuses No admin access the manager, also when asked directly, but not the Web Portal, whose ticket opens only the portal', async () => {
    await setLevel(a.adminId, 'NO_ADMIN_ACCESS');
    for (const path of [ticketPath(a.clusterId), ticketPath(a.clusterId, 'manager')]) {
      const refused = await get(ctx, path, a.admin.jwt);
      expect(refused.statusCode).toBe(403);
      expect(errorCode(refused)).toBe('FORBIDDEN');
      expect(errorMessage(refused)).toBe(CLUSTER_MESSAGES.managerNoAccess);
    }
    const portal = (await get(ctx, ticketPath(a.clusterId, 'portal'), a.admin.jwt)).json();
    expect(ticketOf(portal.url)).toMatchObject({ page: 'portal', holder: { userId: a.adminId }, level: 'NO_ADMIN_ACCESS' });
    const opened = await open(portal.url);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('Kumo Web Portal');
    expect(opened.body).toContain(`<dt>Signed in as</dt><dd>${a.adminEmail}</dd>`);
    // The portal's ticket on the manager's address is not a way in.
    const sso = new URL(portal.url).searchParams.get(MANAGER_TICKET_PARAM)!;
    const managerAddress = portal.url.replace('/portal/', '/manager/');
    expect(new URL(managerAddress).searchParams.get(MANAGER_TICKET_PARAM)).toBe(sso);
    expect((await open(managerAddress)).statusCode).toBe(401);
    await setLevel(a.adminId, 'FULL_ADMIN');
    expect((await get(ctx, ticketPath(a.clusterId), a.admin.jwt)).statusCode).toBe(200);
  });

  it("writes every ticket in the cluster's audit log with the person and the page it opens, and a refused one not", async () => {
    const opened = async () =>
      (await get(ctx, `/api/cluster/get-audit-logs/${a.clusterId}?page=0&size=100`, a.owner.jwt))
        .json()
        .page_content.content.filter((entry: { event: string }) => entry.event === 'CLUSTER_MANAGER_OPENED');
    const before = (await opened()).length;
    expect((await get(ctx, ticketPath(a.clusterId), a.owner.jwt)).statusCode).toBe(200);
    expect((await get(ctx, ticketPath(a.clusterId, 'portal'), a.owner.jwt)).statusCode).toBe(200);
    expect((await get(ctx, ticketPath(a.clusterId), a.member.jwt)).statusCode).toBe(403);
    const after = await opened();
    expect(after).toHaveLength(before + 2);
    expect(after.slice(0, 2)).toMatchObject([
      { caused_by: a.owner.email, description: `Web Portal of Sales_Cluster-1 opened by ${a.owner.email}.` },
      { caused_by: a.owner.email, description: `Kumo Manager of Sales_Cluster-1 opened by ${a.owner.email}.` },
    ]);
  });

  it("keeps members, other accounts and a staff member's view of the console out, and refuses an unknown page", async () => {
    expect((await get(ctx, ticketPath(a.clusterId), a.member.jwt)).statusCode).toBe(403);
    const other = await steps.customer();
    const unseen = await get(ctx, ticketPath(a.clusterId), other.jwt);
    expect(unseen.statusCode).toBe(404);
    expect(errorCode(unseen)).toBe('NOT_FOUND');
    // A ticket would name the owner: the read-only view of a staff member is refused it (staff have Open Manager).
    const viewing = await staffViewOf(ctx, a.ownerId);
    expect((await get(ctx, ticketPath(a.clusterId), viewing.jwt)).statusCode).toBe(403);
    const unknown = await get(ctx, ticketPath(a.clusterId, 'console'), a.owner.jwt);
    expect(unknown.statusCode).toBe(400);
    expect(JSON.stringify(unknown.json())).toContain(CLUSTER_MESSAGES.managerPageInvalid);
  });

  it('issues no ticket while the cluster is not online', async () => {
    const other = await steps.customer();
    const deploying = await steps.createCluster(other.jwt, other.subscriptionId);
    for (const [page, message] of [
      ['manager', CLUSTER_MESSAGES.managerUnavailable],
      ['portal', CLUSTER_MESSAGES.portalUnavailable],
    ] as const) {
      const refused = await get(ctx, ticketPath(deploying, page), other.jwt);
      expect(refused.statusCode).toBe(422);
      expect(errorMessage(refused)).toBe(message);
    }
    await steps.elapse(simMinutes(61), deploying);
    expect((await get(ctx, ticketPath(deploying), other.jwt)).statusCode).toBe(200);
  });
});

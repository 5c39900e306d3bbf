import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NETWORK_ACCESS_MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';

/**
 * The simulated cluster's Kumo Manager and Web Portal follow its network access list as the cluster's own firewall
 * would: an address outside it is refused (403 NETWORK_ACCESS_DENIED) before the ticket is even looked at.
 */
const kinds = await databaseKinds();

describe.each(kinds)("the cluster's pages follow its network access list on %s", (kind) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<ReturnType<typeof clusterSteps>['customer']>>;
  let clusterId: string;
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    owner = await steps.customer();
    clusterId = await steps.deployOnline(owner.jwt, owner.subscriptionId);
  });
  afterAll(() => ctx.close());
  const steps = clusterSteps(() => ctx);

  /** The page's address with a fresh ticket of the owner's, opened from `address`. */
  async function open(page: 'manager' | 'portal', address: string) {
    const ticket = await get(ctx, `/api/cluster/kumo/sso/${clusterId}?page=${page}`, owner.jwt);
    expect(ticket.statusCode, ticket.body).toBe(200);
    const url = new URL(ticket.json().url as string);
    return ctx.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, remoteAddress: address });
  }

  it('open from anywhere while the cluster is open to anywhere', async () => {
    expect((await open('manager', '198.51.100.1')).statusCode).toBe(200);
    expect((await open('portal', '2001:db9::1')).statusCode).toBe(200);
  });

  it('refuse an address outside the list with the contract error, and open for one inside it', async () => {
    const list = { allow_anywhere: false, allowed: [{ cidr: '203.0.113.0/24', description: 'Office' }] };
    expect((await send(ctx, 'PUT', `/api/cluster/network-access/${clusterId}`, list, owner.jwt)).statusCode).toBe(200);
    for (const page of ['manager', 'portal'] as const) {
      const refused = await open(page, '198.51.100.1');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({
        errorDetails: {
          error_code: 'NETWORK_ACCESS_DENIED',
          error_message: NETWORK_ACCESS_MESSAGES.denied,
          request_id: expect.any(String),
        },
      });
      expect(refused.body).not.toContain('Sales_Cluster-1');
      expect((await open(page, '203.0.113.45')).statusCode).toBe(200);
      // An IPv4 address as a dual-stack socket reports it is the same address.
      expect((await open(page, '::ffff:203.0.113.45')).statusCode).toBe(200);
    }
    // Nothing else changes: without a ticket, an address inside the list still gets no page.
    const stack = `kumo-${clusterId}`;
    expect((await ctx.app.inject({ method: 'GET', url: `/sim/kumo/${stack}/manager/`, remoteAddress: '203.0.113.45' })).statusCode).toBe(
      401,
    );
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/sim/kumo/kumo-not-a-cluster/manager/', remoteAddress: '198.51.100.1' })).statusCode,
    ).toBe(401);
  });
});

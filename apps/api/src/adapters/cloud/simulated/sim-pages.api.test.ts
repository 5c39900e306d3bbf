import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../../test/support/databases.js';
import { TEST_SECRET, startTestApp, type TestContext } from '../../../../test/support/harness.js';
import { stackNameFor } from '../cloud-provisioner.js';
import { managerTicket, readManagerTicket } from '../manager-ticket.js';

/** The simulated cluster's Kumo Manager and Web Portal open only with the single-sign-on ticket the portal signs. */
const kinds = await databaseKinds();

describe.each(kinds)('simulated Kumo Manager and Web Portal pages (%s)', (kind) => {
  let ctx: TestContext;
  const deploymentId = randomUUID();
  const stackName = stackNameFor(deploymentId);
  const inAMinute = () => new Date(ctx.clock.now().getTime() + 60_000);
  const ticketFor = (id: string, expiresAt = inAMinute(), secret = TEST_SECRET) =>
    managerTicket(secret, { deploymentId: id, holder: 'staff-user', expiresAt });
  const open = (page: 'manager' | 'portal', ticket?: string) =>
    ctx.app.inject({ url: `/sim/kumo/${stackName}/${page}/${ticket ? `?sso=${encodeURIComponent(ticket)}` : ''}` });

  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 60 } });
    await ctx.services.simulatedCloud!.createCluster({
      deploymentId,
      stackName,
      settings: { clusterName: 'Ticketed', region: 'us-east-1', backupRegion: null, cidr: '10.20.0.0/16', kumoVersion: '1.4.0' },
      password: 'a-long-cluster-password',
    });
    ctx.clock.advance(2 * 60 * 60_000); // well past the simulated hour a deployment takes
  });
  afterAll(() => ctx.close());

  it('open with a current ticket for this cluster', async () => {
    const manager = await open('manager', ticketFor(deploymentId));
    expect(manager.statusCode).toBe(200);
    expect(manager.body).toContain('kmuser');
    expect((await open('portal', ticketFor(deploymentId))).body).toContain('Admin');
  });

  it('answer 401 without a ticket, and tell nothing of the cluster', async () => {
    for (const page of ['manager', 'portal'] as const) {
      const refused = await open(page);
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['content-type']).toContain('text/html');
      expect(refused.body).not.toContain('Ticketed');
    }
  });

  it('answer 401 to an expired ticket, a forged one, and one for another cluster', async () => {
    const expired = ticketFor(deploymentId, new Date(ctx.clock.now().getTime() - 1));
    const forged = ticketFor(deploymentId, inAMinute(), 'another-secret-that-is-long-enough-for-hmac');
    const otherCluster = ticketFor(randomUUID());
    for (const ticket of [expired, forged, otherCluster, 'not-a-ticket']) expect((await open('manager', ticket)).statusCode).toBe(401);
  });

  it('read a ticket as valid until the instant it expires', () => {
    const ticket = ticketFor(deploymentId);
    expect(readManagerTicket(TEST_SECRET, ticket, ctx.clock.now())).toMatchObject({ deploymentId, holder: 'staff-user' });
    expect(readManagerTicket(TEST_SECRET, ticket, inAMinute())).toBeNull();
  });
});

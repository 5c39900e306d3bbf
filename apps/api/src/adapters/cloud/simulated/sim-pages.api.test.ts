import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MESSAGES, type ManagerAccessLevel } from '@kumo/contract';
import { databaseKinds } from '../../../../test/support/databases.js';
import { TEST_TICKET_KEY, startTestApp, type TestContext } from '../../../../test/support/harness.js';
import { stackNameFor } from '../cloud-provisioner.js';
import { managerTicket, readManagerTicket, type ManagerTicket } from '../manager-ticket.js';
import { SIM_PAGE_TEXTS } from './sim-pages.routes.js';

/**
 * The simulated cluster's Kumo Manager and Web Portal open only with a single-sign-on ticket the portal signed for
 * this cluster, this page and one person; the manager only with a level that lets them in, and shows what it allows.
 */
const kinds = await databaseKinds();

describe.each(kinds)('simulated Kumo Manager and Web Portal pages (%s)', (kind) => {
  let ctx: TestContext;
  const deploymentId = randomUUID();
  const stackName = stackNameFor(deploymentId);
  const inAMinute = () => new Date(ctx.clock.now().getTime() + 60_000);
  const person = { kind: 'customer' as const, userId: randomUUID(), email: 'lee.limited@example.com' };
  const ticketFor = (overrides: Partial<ManagerTicket> = {}, secret = TEST_TICKET_KEY) =>
    managerTicket(secret, { deploymentId, page: 'manager', holder: person, level: 'FULL_ADMIN', expiresAt: inAMinute(), ...overrides });
  const open = (page: 'manager' | 'portal', ticket?: string, method: 'GET' | 'POST' = 'GET') =>
    ctx.app.inject({
      method,
      url: `/sim/kumo/${stackName}/${page}/${ticket ? `?sso=${encodeURIComponent(ticket)}` : ''}`,
      // Open Manager's form post from the console, which sends no referrer: its origin reads 'null'.
      ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' }, payload: '' } : {}),
    });

  const logs: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    }),
  );

  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 60 }, logger });
    await ctx.services.simulatedCloud!.createCluster({
      deploymentId,
      stackName,
      settings: { clusterName: 'Ticketed', region: 'us-east-1', backupRegion: null, cidr: '10.20.0.0/16', kumoVersion: '1.4.0' },
      password: 'a-long-cluster-password',
    });
    ctx.clock.advance(2 * 60 * 60_000); // well past the simulated hour a deployment takes
  });
  afterAll(() => ctx.close());

  it('open with a current ticket for this cluster and page, naming who is signed in', async () => {
    const manager = await open('manager', ticketFor());
    expect(manager.statusCode).toBe(200);
    expect(manager.body).toContain('<dt>Signed in as</dt><dd>lee.limited@example.com</dd>');
    const portal = await open('portal', ticketFor({ page: 'portal', level: undefined }));
    expect(portal.statusCode).toBe(200);
    expect(portal.body).toContain('<dt>Portal account</dt><dd>Admin</dd>');
  });

  it('show what each level allows: everything for Full admin and Full kmuser, less for Limited', async () => {
    const shown = async (level: ManagerAccessLevel) => (await open('manager', ticketFor({ level }))).body;
    const kmuser = await shown('FULL_KMUSER');
    expect(kmuser).toContain('<dt>Manager account</dt><dd>kmuser</dd>');
    for (const body of [kmuser, await shown('FULL_ADMIN')]) {
      expect(body).toContain('Change every property');
      expect(body).toContain('<h2>Users and security</h2>');
      expect(body).not.toContain('Read-only');
    }
    const limited = await shown('LIMITED');
    expect(limited).toContain('<dt>Access level</dt><dd>Limited</dd>');
    expect(limited).toContain('<dt>Manager account</dt><dd>lee.limited@example.com</dd>');
    expect(limited).toContain('Change some properties');
    expect(limited).toContain('<td>Log level</td><td>INFO</td><td>Can change</td>');
    expect(limited).toContain('<td>Backup schedule</td><td>Daily at 02:00 UTC</td><td>Read-only</td>');
    expect(limited).not.toContain('Users and security');
  });

  it('refuse a manager ticket without a level or with No admin access, telling nothing of the cluster', async () => {
    const without = await open('manager', ticketFor({ level: undefined }));
    expect(without.statusCode).toBe(403);
    expect(without.body).toContain(SIM_PAGE_TEXTS.noLevel);
    const noAccess = await open('manager', ticketFor({ level: 'NO_ADMIN_ACCESS' }));
    expect(noAccess.statusCode).toBe(403);
    expect(noAccess.body).toContain(CLUSTER_MESSAGES.managerNoAccess.replace("'", '&#39;'));
    for (const refused of [without, noAccess]) expect(refused.body).not.toContain('Ticketed');
    // A level the manager does not know is no level.
    const forgedLevel = managerTicket(TEST_TICKET_KEY, {
      ...readManagerTicket(TEST_TICKET_KEY, ticketFor(), ctx.clock.now())!,
      level: 'ROOT' as ManagerAccessLevel,
    });
    expect((await open('manager', forgedLevel)).statusCode).toBe(403);
  });

  it("take staff Open Manager's form post, naming the staff member", async () => {
    const staff = { kind: 'staff' as const, userId: randomUUID(), email: 'ada@kumo.test' };
    const posted = await open('manager', ticketFor({ holder: staff }), 'POST');
    expect(posted.statusCode).toBe(200);
    expect(posted.body).toContain('<dt>Signed in as</dt><dd>ada@kumo.test (provider staff)</dd>');
  });

  it('answer 401 without a ticket, and tell nothing of the cluster', async () => {
    for (const page of ['manager', 'portal'] as const) {
      const refused = await open(page);
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['content-type']).toContain('text/html');
      expect(refused.body).not.toContain('Ticketed');
    }
  });

  it('answer 401 to an expired ticket, a forged one, one for another cluster and one for the other page', async () => {
    const expired = ticketFor({ expiresAt: new Date(ctx.clock.now().getTime() - 1) });
    const forged = ticketFor({}, 'another-secret-that-is-long-enough-for-hmac');
    const otherCluster = ticketFor({ deploymentId: randomUUID() });
    const portalTicket = ticketFor({ page: 'portal' });
    for (const ticket of [expired, forged, otherCluster, portalTicket, 'not-a-ticket'])
      expect((await open('manager', ticket)).statusCode).toBe(401);
    expect((await open('portal', ticketFor())).statusCode).toBe(401);
  });

  it('never write a ticket to the log: it is a credential', async () => {
    const ticket = ticketFor();
    expect((await open('manager', ticket)).statusCode).toBe(200);
    const written = logs.join('');
    expect(written).toContain(`/sim/kumo/${stackName}/manager/?sso=[redacted]`);
    expect(written).not.toContain(ticket.split('.')[1]!);
  });

  it('read a ticket as valid until the instant it expires', () => {
    const ticket = ticketFor();
    expect(readManagerTicket(TEST_TICKET_KEY, ticket, ctx.clock.now())).toMatchObject({
      deploymentId,
      holder: person,
      level: 'FULL_ADMIN',
    });
    expect(readManagerTicket(TEST_TICKET_KEY, ticket, inAMinute())).toBeNull();
  });
});

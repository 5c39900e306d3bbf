import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUpOwner, type AccountPerson } from '../../../test/support/account-people.js';
import { auditOf, noticesOf, recordQuery } from '../../../test/support/auto-stop.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { DEFAULT_RATES, clusterHourCents } from '../metering/index.js';
import { AUTO_STOP_JOBS } from './index.js';

const kinds = await databaseKinds();

/** The idle stopper on the manual clock: SIM_TIME_SCALE 60, so one of the cloud's minutes is one second here. */
describe.each(kinds)('idle auto-stop on %s', (kind) => {
  let ctx: TestContext;
  let owner: AccountPerson;
  let subscriptionId: string;
  const { deployOnline, elapse, status } = clusterSteps(() => ctx);
  let email: string;
  let token: string;
  const jwt = () => token;
  /** The manual clock jumps past the access token's 15 minutes: a fresh sign-in. */
  const signIn = async () => {
    token = (await logIn(ctx, email)).jwt;
  };
  const autoStop = async (id: string) => (await get(ctx, `/api/cluster/auto-stop/${id}`, jwt())).json();
  const setIdle = (id: string, minutes: number | null) =>
    send(ctx, 'PUT', `/api/cluster/auto-stop/${id}`, { idle_minutes: minutes }, jwt());

  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    ctx.clock.set('2026-05-20T14:00:00Z');
    email = `idle.${randomUUID().slice(0, 8)}@example.com`;
    owner = await signedUpOwner(ctx, email, 'Ida Idle');
    token = owner.tokens.jwt;
    subscriptionId = await createSubscription(ctx, jwt(), 'Idle');
  });
  afterAll(() => ctx.close());

  it('stops a cluster idle for its minutes on the cloud’s clock, saying its last query in the audit, the timeline and the bell', async () => {
    const id = await deployOnline(jwt(), subscriptionId, { cluster_name: 'Dozy', cidr: '10.1.0.0/16' });
    expect((await setIdle(id, 10)).statusCode).toBe(200);
    const lastQuery = ctx.clock.now();
    await recordQuery(ctx, id, { at: lastQuery });
    // A refused attempt (a scanner with the wrong password) is no activity.
    ctx.clock.advance(simMinutes(5));
    await recordQuery(ctx, id, { status: 'REFUSED', address: '198.51.100.66', agent: 'masscan' });
    expect((await autoStop(id)).stops_at).toBe(new Date(lastQuery.getTime() + simMinutes(10)).toISOString());

    ctx.clock.set(new Date(lastQuery.getTime() + simMinutes(10) - 1));
    expect(await ctx.services.autoStop.sweepIdle()).toBe(0);
    expect((await status(jwt(), id)).status).toBe('ONLINE');
    // Due within the minute: a check is queued for the very moment, in real seconds.
    expect(ctx.jobs.sent.filter((job) => job.queue === AUTO_STOP_JOBS.check).at(-1)).toMatchObject({
      data: { clusterId: id, accountId: owner.accountId },
    });

    ctx.clock.set(new Date(lastQuery.getTime() + simMinutes(10)));
    expect(await ctx.services.autoStop.sweepIdle()).toBe(1);
    expect((await status(jwt(), id)).status).toBe('STOPPING');
    const reason = `Stopped after 10 idle minutes; last query ${lastQuery.toISOString().slice(11, 16)} UTC from 203.0.113.7 (DBeaver).`;
    expect((await auditOf(ctx, id))[0]).toEqual({ event: 'CLUSTER_STOP_REQUESTED', description: reason, actor_label: 'System' });
    expect((await get(ctx, `/api/cluster/timeline/${id}`, jwt())).body).toContain(reason);
    expect(await noticesOf(ctx, owner.accountId, 'CLUSTER_AUTO_STOPPED')).toEqual([
      {
        title: 'Dozy was stopped after 10 idle minutes',
        body: `${reason} Its data is kept and its storage is still charged. Start it again from the cluster's page.`,
        link: `/clusters/${subscriptionId}/${id}`,
      },
    ]);
    const bell = (await get(ctx, '/api/user/notifications', jwt())).json();
    expect(bell.content[0]).toMatchObject({ kind: 'CLUSTER_AUTO_STOPPED', title: 'Dozy was stopped after 10 idle minutes' });

    // Stopped as a person's stop is: the cloud stops it, data kept; auto-stop has nothing more to do.
    await elapse(simMinutes(5), id);
    expect((await status(jwt(), id)).status).toBe('OFFLINE');
    expect(await ctx.services.autoStop.sweepIdle()).toBe(0);
    expect((await autoStop(id)).stops_at).toBeNull();
  });

  it('counts a cluster just started from its start, and says when nothing was queried since', async () => {
    const id = await deployOnline(jwt(), subscriptionId, { cluster_name: 'Fresh', cidr: '10.2.0.0/16' });
    await setIdle(id, 10);
    // A query long before it came online: still not activity since it started.
    await recordQuery(ctx, id, { at: new Date(ctx.clock.now().getTime() - simMinutes(120)) });
    ctx.clock.advance(simMinutes(9));
    expect(await ctx.services.autoStop.sweepIdle()).toBe(0);
    ctx.clock.advance(simMinutes(1));
    expect(await ctx.services.autoStop.sweepIdle()).toBe(1);
    expect((await auditOf(ctx, id))[0]!.description).toBe('Stopped after 10 idle minutes; no query since it started.');

    // Started again by a person: its idle time counts from that start, not from the old query.
    await elapse(simMinutes(5), id);
    expect((await send(ctx, 'POST', `/api/cluster/start/${id}`, undefined, jwt())).statusCode).toBe(200);
    await elapse(simMinutes(10), id);
    expect((await status(jwt(), id)).status).toBe('ONLINE');
    expect(await ctx.services.autoStop.sweepIdle()).toBe(0);
    expect(new Date((await autoStop(id)).stops_at).getTime()).toBeGreaterThan(ctx.clock.now().getTime());
  });

  it('leaves a cluster with auto-stop off running however long it idles', async () => {
    const id = await deployOnline(jwt(), subscriptionId, { cluster_name: 'Awake', cidr: '10.3.0.0/16' });
    await setIdle(id, null);
    ctx.clock.advance(simMinutes(24 * 60));
    await ctx.services.autoStop.sweepIdle();
    await signIn();
    expect((await status(jwt(), id)).status).toBe('ONLINE');
  });

  it('stops once when two portals sweep at the same moment: one stop, one audit entry, one notice', async () => {
    await signIn();
    const id = await deployOnline(jwt(), subscriptionId, { cluster_name: 'Twice', cidr: '10.4.0.0/16' });
    await setIdle(id, 10);
    ctx.clock.advance(simMinutes(11));
    const other = await startTestApp(kind, { ...CLUSTER_TEST_APP, sameDatabaseAs: ctx });
    try {
      other.clock.set(ctx.clock.now());
      const stopped = await Promise.all([
        ctx.services.autoStop.sweepIdle(),
        other.services.autoStop.sweepIdle(),
        ctx.services.autoStop.checkIdle(owner.accountId, id),
        other.services.autoStop.checkIdle(owner.accountId, id),
      ]);
      expect(stopped.map(Number).reduce((a, b) => a + b, 0)).toBe(1);
    } finally {
      await other.close();
    }
    expect((await auditOf(ctx, id)).filter((entry) => entry.event === 'CLUSTER_STOP_REQUESTED')).toHaveLength(1);
    const notices = await noticesOf(ctx, owner.accountId, 'CLUSTER_AUTO_STOPPED');
    expect(notices.filter((notice) => notice.title.startsWith('Twice'))).toHaveLength(1);
  });

  it('tells what auto-stop saved this month: its stopped hours at what running would have cost beyond storage', async () => {
    ctx.clock.set('2026-06-30T20:00:00Z');
    await signIn();
    const id = await deployOnline(jwt(), subscriptionId, { cluster_name: 'Saver', cidr: '10.5.0.0/16' });
    await setIdle(id, 10);
    ctx.clock.advance(simMinutes(10));
    await ctx.services.autoStop.sweepIdle();
    await elapse(simMinutes(5), id);
    // Ten billable hours stopped (a billable hour is a minute here), in June.
    ctx.clock.advance(simMinutes(10 * 60) - simMinutes(5));
    await signIn();
    const perHour = clusterHourCents(DEFAULT_RATES, 'running', false) - clusterHourCents(DEFAULT_RATES, 'stopped', false);
    expect(perHour).toBeGreaterThan(0);
    expect((await autoStop(id)).saved_this_month).toBe(Math.round(10 * perHour) / 100);
    // A new month counts from its first day.
    ctx.clock.set('2026-07-01T00:00:00Z');
    ctx.clock.advance(simMinutes(3 * 60));
    await signIn();
    expect((await autoStop(id)).saved_this_month).toBe(Math.round(3 * perHour) / 100);
  });
});

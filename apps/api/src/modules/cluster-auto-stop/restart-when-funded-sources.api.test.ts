import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, restartShown } from '../../../test/support/auto-stop.js';
import { TEST_CARDS, payWith } from '../../../test/support/checkout.js';
import { CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { fourEyesSteps } from '../../../test/support/four-eyes.js';
import { get, logIn, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { balanceCents } from '../../../test/support/metering.js';
import { drainJobs } from '../../../test/support/money.js';
import { AUTO_TOP_UP_CHARGE_QUEUE } from '../auto-top-up/index.js';

const kinds = await databaseKinds();

const OVERDUE_RESTART = (name: string) =>
  `Started again on its own: the balance of ${name} is back above the minimum, and restart when funded is on.`;
const CAP_RESTART = (name: string) =>
  `Started again on its own: the budget of ${name} allows it again (raised, or a new month), and restart when funded is on.`;

/**
 * Restart when funded from each way money or room comes back, on the manual clock (SIM_TIME_SCALE 60, a billable hour
 * a minute): an automatic top-up and a staff credit after an overdue stop, and the turn of the month after a hard-cap
 * stop. Each is seen by the minute sweep, as a top-up by card is.
 */
describe.each(kinds)('restart when funded, from each source on %s', (kind) => {
  let ctx: TestContext;
  const { customer, deployOnline, elapse, status } = clusterSteps(() => ctx);
  const fourEyes = fourEyesSteps(() => ctx);

  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    // Late in August: the overdue cases take about three hours of the clock, and the last case turns the month.
    ctx.clock.set('2026-08-31T18:00:00Z');
    await fourEyes.signInStaff();
  });
  afterAll(() => ctx.close());

  /** An online cluster with idle auto-stop off and restart when funded on. */
  async function restartable(jwt: string, subscriptionId: string, name: string) {
    const id = await deployOnline(jwt, subscriptionId, { cluster_name: name });
    const saved = await send(ctx, 'PUT', `/api/cluster/auto-stop/${id}`, { idle_minutes: null, restart_when_funded: true }, jwt);
    expect(saved.statusCode, saved.body).toBe(200);
    return id;
  }

  /** Runs the $500 of sign-up credits out: the overdue guard stops the cluster. Returns a fresh sign-in. */
  async function overdueStop(email: string, subscriptionId: string, id: string) {
    ctx.clock.advance(simMinutes(90 * 60));
    await ctx.services.metering.run();
    const { jwt } = await logIn(ctx, email);
    expect(await balanceCents(ctx, subscriptionId)).toBeLessThan(0);
    expect((await status(jwt, id)).status).toBe('STOPPING');
    await elapse(simMinutes(5), id);
    expect((await status(jwt, id)).status).toBe('OFFLINE');
    expect(await ctx.services.autoStop.sweepRestarts()).toBe(0);
    return jwt;
  }

  /** The start the sweep made, in the audit log, the timeline and the owner's bell. */
  async function expectRestarted(email: string, subscriptionId: string, id: string, name: string, said: string) {
    const { jwt } = await logIn(ctx, email);
    expect((await status(jwt, id)).status).toBe('STARTING');
    expect((await auditOf(ctx, id))[0]).toEqual({ event: 'CLUSTER_START_REQUESTED', description: said, actor_label: 'System' });
    expect(await restartShown(ctx, jwt, id)).toEqual({
      timeline: { description: said, caused_by: 'System' },
      bell: [{ title: `${name} was started again`, body: said, link: `/clusters/${subscriptionId}/${id}` }],
    });
  }

  it('starts a cluster the overdue guard stopped once an automatic top-up is charged to the saved card', async () => {
    const { email, jwt: first, subscriptionId } = await customer('Topped');
    const id = await restartable(first, subscriptionId, 'Topped');
    const jwt = await overdueStop(email, subscriptionId, id);

    // The owner saves a card and turns automatic top-up on; the next metering run charges it.
    const opened = await send(ctx, 'POST', `/api/subscription/${subscriptionId}/payment-method`, undefined, jwt);
    expect((await payWith(ctx, new URL(opened.json().redirect_url).pathname, TEST_CARDS.success)).statusCode).toBe(303);
    const topUp = { enabled: true, threshold_amount: 50, top_up_amount: 1000, monthly_cap: 1000 };
    const saved = await send(ctx, 'PUT', `/api/subscription/${subscriptionId}/auto-top-up`, topUp, jwt);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await ctx.services.autoStop.sweepRestarts()).toBe(0);

    ctx.clock.advance(simMinutes(60));
    await ctx.services.metering.run();
    expect(await drainJobs(ctx, AUTO_TOP_UP_CHARGE_QUEUE, (data) => ctx.services.autoTopUp.charge(String(data.key)))).toBeGreaterThan(0);
    expect(await balanceCents(ctx, subscriptionId)).toBeGreaterThan(10_000);

    expect(await ctx.services.autoStop.sweepRestarts()).toBe(1);
    await expectRestarted(email, subscriptionId, id, 'Topped', OVERDUE_RESTART('Topped'));
  });

  it('starts a cluster the overdue guard stopped once staff add funds, approved by a second person', async () => {
    const { email, jwt: first, subscriptionId } = await customer('Credited');
    const id = await restartable(first, subscriptionId, 'Credited');
    const jwt = await overdueStop(email, subscriptionId, id);

    const userId = String((await get(ctx, '/api/user/detail', jwt)).json().userId);
    // Signed in again after the hours the money took to run out.
    const billing = await logIn(ctx, fourEyes.emails.billing);
    const asked = await fourEyes.ask(fourEyes.addFunds({ userId, subscriptionId }, 1000, 'Goodwill after an outage'), billing);
    expect(asked.statusCode, asked.body).toBe(200);
    // Asked is not added: nothing starts until an approver's code completes it.
    expect(await ctx.services.autoStop.sweepRestarts()).toBe(0);
    const done = await fourEyes.complete(asked.json().operation_id as string, billing);
    expect(done.statusCode, done.body).toBe(200);
    expect(await balanceCents(ctx, subscriptionId)).toBeGreaterThan(10_000);

    expect(await ctx.services.autoStop.sweepRestarts()).toBe(1);
    await expectRestarted(email, subscriptionId, id, 'Credited', OVERDUE_RESTART('Credited'));
  });

  it('starts a cluster the hard cap stopped once the month turns, and not before', async () => {
    expect(ctx.clock.now().toISOString()).toMatch(/^2026-08-31T/);
    const { email, jwt, subscriptionId } = await customer('Monthly');
    const id = await restartable(jwt, subscriptionId, 'Monthly');
    ctx.clock.advance(simMinutes(10 * 60));
    await ctx.services.metering.run();
    const signedIn = (await logIn(ctx, email)).jwt;

    // A budget of half the month's spend: capped now, while a fresh month has room for the cluster's hours ahead.
    const budgetUrl = `/api/subscription/${subscriptionId}/budget`;
    const spent = (await get(ctx, budgetUrl, signedIn)).json().month_to_date as number;
    expect(spent).toBeGreaterThan(0);
    const capped = await send(ctx, 'PUT', budgetUrl, { monthly_amount: Math.floor(spent / 2), stop_clusters_at_limit: true }, signedIn);
    expect(capped.statusCode, capped.body).toBe(200);
    expect((await status(signedIn, id)).status).toBe('STOPPING');
    await elapse(simMinutes(5), id);
    expect((await status(signedIn, id)).status).toBe('OFFLINE');
    expect(await ctx.services.autoStop.sweepRestarts()).toBe(0);
    // Later the same day, the budget unchanged: still not.
    ctx.clock.advance(simMinutes(30));
    await ctx.services.metering.run();
    expect(ctx.clock.now().toISOString()).toMatch(/^2026-08-31T/);
    expect(await ctx.services.autoStop.sweepRestarts()).toBe(0);

    // Into September, with the minute's metering run and then the restart sweep.
    ctx.clock.set('2026-09-01T00:01:00Z');
    await ctx.services.metering.run();
    const september = (await get(ctx, budgetUrl, (await logIn(ctx, email)).jwt)).json();
    expect(september.start_headroom_per_hour).toBeGreaterThan(0);
    expect(await ctx.services.autoStop.sweepRestarts()).toBe(1);
    await expectRestarted(email, subscriptionId, id, 'Monthly', CAP_RESTART('Monthly'));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditOf, noticesOf, restartShown } from '../../../test/support/auto-stop.js';
import { TEST_CARDS, deliverSandboxEvents, openCheckout, payWith } from '../../../test/support/checkout.js';
import { CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { balanceCents } from '../../../test/support/metering.js';

const kinds = await databaseKinds();

/** Restart when funded, on the manual clock: SIM_TIME_SCALE 60, so a billable hour is a minute here. */
describe.each(kinds)('restart when funded on %s', (kind) => {
  let ctx: TestContext;
  const { customer, deployOnline, elapse, status } = clusterSteps(() => ctx);

  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    ctx.clock.set('2026-08-03T08:00:00Z');
  });
  afterAll(() => ctx.close());

  /** An online cluster with idle auto-stop off and restart when funded as asked. */
  async function cluster(jwt: string, subscriptionId: string, name: string, cidr: string, restart: boolean) {
    const id = await deployOnline(jwt, subscriptionId, { cluster_name: name, cidr });
    const saved = await send(ctx, 'PUT', `/api/cluster/auto-stop/${id}`, { idle_minutes: null, restart_when_funded: restart }, jwt);
    expect(saved.statusCode, saved.body).toBe(200);
    return id;
  }

  const accountOf = async (jwt: string) => String((await get(ctx, '/api/user/detail', jwt)).json().accounts[0].account_id);

  it('starts a cluster the overdue guard stopped once a top-up brings the balance back, once, and never one a person stopped', async () => {
    const { email, jwt: first, subscriptionId } = await customer('Funded');
    const phoenix = await cluster(first, subscriptionId, 'Phoenix', '10.1.0.0/16', true);
    const plain = await cluster(first, subscriptionId, 'Plain', '10.2.0.0/16', false);
    const manual = await cluster(first, subscriptionId, 'Manual', '10.3.0.0/16', true);
    // A person stops Manual before the money runs out.
    expect((await send(ctx, 'POST', `/api/cluster/stop/${manual}`, undefined, first)).statusCode).toBe(200);
    await elapse(simMinutes(5), manual);

    // $500 of sign-up credits at a few dollars an hour per cluster: overdue well within 90 billable hours.
    ctx.clock.advance(simMinutes(90 * 60));
    await ctx.services.metering.run();
    let jwt = (await logIn(ctx, email)).jwt;
    expect(await balanceCents(ctx, subscriptionId)).toBeLessThan(0);
    for (const id of [phoenix, plain]) {
      expect((await status(jwt, id)).status).toBe('STOPPING');
      await elapse(simMinutes(5), id);
      expect((await status(jwt, id)).status).toBe('OFFLINE');
    }
    // Still overdue: nothing starts.
    expect(await ctx.services.autoStop.sweepRestarts()).toBe(0);

    const checkout = await openCheckout(ctx, jwt, subscriptionId, 900);
    await payWith(ctx, checkout.path, TEST_CARDS.success);
    await deliverSandboxEvents(ctx);
    expect(await balanceCents(ctx, subscriptionId)).toBeGreaterThan(0);

    // Two portals' sweeps at the same moment start it once.
    const other = await startTestApp(kind, { ...CLUSTER_TEST_APP, sameDatabaseAs: ctx });
    try {
      other.clock.set(ctx.clock.now());
      const started = await Promise.all([ctx.services.autoStop.sweepRestarts(), other.services.autoStop.sweepRestarts()]);
      expect(started[0] + started[1]).toBe(1);
    } finally {
      await other.close();
    }
    expect(await ctx.services.autoStop.sweepRestarts()).toBe(0);
    jwt = (await logIn(ctx, email)).jwt;
    expect((await status(jwt, phoenix)).status).toBe('STARTING');
    const said = 'Started again on its own: the balance of Funded is back above the minimum, and restart when funded is on.';
    expect((await auditOf(ctx, phoenix))[0]).toEqual({ event: 'CLUSTER_START_REQUESTED', description: said, actor_label: 'System' });
    expect((await get(ctx, `/api/cluster/timeline/${phoenix}`, jwt)).body).toContain(said);
    expect(await noticesOf(ctx, await accountOf(jwt), 'CLUSTER_RESTARTED')).toEqual([
      { title: 'Phoenix was started again', body: said, link: `/clusters/${subscriptionId}/${phoenix}` },
    ]);
    // Restart when funded off, and a person's stop: both stay stopped.
    expect((await status(jwt, plain)).status).toBe('OFFLINE');
    expect((await status(jwt, manual)).status).toBe('OFFLINE');
  });

  it('starts a cluster the budget’s hard cap stopped once the budget is raised, and not one a person started and stopped since', async () => {
    const { jwt, subscriptionId } = await customer('Capped');
    const capped = await cluster(jwt, subscriptionId, 'Capped', '10.4.0.0/16', true);
    const touched = await cluster(jwt, subscriptionId, 'Touched', '10.5.0.0/16', true);
    ctx.clock.advance(simMinutes(3 * 60));
    await ctx.services.metering.run();
    const budgetUrl = `/api/subscription/${subscriptionId}/budget`;
    const low = await send(ctx, 'PUT', budgetUrl, { monthly_amount: 1, stop_clusters_at_limit: true }, jwt);
    expect(low.statusCode, low.body).toBe(200);
    for (const id of [capped, touched]) {
      expect((await status(jwt, id)).status).toBe('STOPPING');
      await elapse(simMinutes(5), id);
    }
    expect(await ctx.services.autoStop.sweepRestarts()).toBe(0);

    // Touched: its owner lifts the cap for a moment, starts it by hand and stops it again before capping once more.
    await send(ctx, 'PUT', budgetUrl, { monthly_amount: 10_000, stop_clusters_at_limit: true }, jwt);
    expect((await send(ctx, 'POST', `/api/cluster/start/${touched}`, undefined, jwt)).statusCode).toBe(200);
    await elapse(simMinutes(10), touched);
    expect((await send(ctx, 'POST', `/api/cluster/stop/${touched}`, undefined, jwt)).statusCode).toBe(200);
    await elapse(simMinutes(5), touched);
    expect((await status(jwt, touched)).status).toBe('OFFLINE');

    expect(await ctx.services.autoStop.sweepRestarts()).toBe(1);
    expect((await status(jwt, capped)).status).toBe('STARTING');
    const said = 'Started again on its own: the budget of Capped allows it again (raised, or a new month), and restart when funded is on.';
    expect((await auditOf(ctx, capped))[0]).toEqual({ event: 'CLUSTER_START_REQUESTED', description: said, actor_label: 'System' });
    // The owner reads it in the cluster's timeline and in the bell; Touched, which stays stopped, is in neither.
    expect(await restartShown(ctx, jwt, capped)).toEqual({
      timeline: { description: said, caused_by: 'System' },
      bell: [{ title: 'Capped was started again', body: said, link: `/clusters/${subscriptionId}/${capped}` }],
    });
    expect((await restartShown(ctx, jwt, touched)).timeline?.caused_by).not.toBe('System');
    expect((await status(jwt, touched)).status).toBe('OFFLINE');
  });
});

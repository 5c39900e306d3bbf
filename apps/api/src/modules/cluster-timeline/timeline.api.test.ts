import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CLUSTER_MESSAGES, TIMELINE_DAYS_PER_PAGE, type TimelineResponse } from '@kumo/contract';
import { HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { rows } from '../../../test/support/metering.js';
import { get, logIn, post, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();
let counter = 0;
const DAY = 24 * HOUR;

describe.each(kinds)('cluster timeline on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Real hours (a deployment takes an hour of the test clock), so days of charges stay few rows.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1, simFailPattern: '^doomed' } });
  });
  afterAll(() => ctx.close());

  async function customer() {
    const email = `timeline${++counter}.${Date.now()}@example.com`;
    const { jwt } = await signUp(ctx, email, 'Tim Line');
    return { email, jwt, subscriptionId: await createSubscription(ctx, jwt, 'Analytics') };
  }

  async function createCluster(jwt: string, subscriptionId: string, name: string) {
    const response = await post(
      ctx,
      '/api/cluster/create',
      {
        subscription_id: subscriptionId,
        cluster_name: name,
        cloud_provider: 'AWS',
        cidr: `10.${counter}.0.0/16`,
        region: 'us-east-1',
        password: 'Sup3r#Secret-pw',
        kumo_version: '2026.10.1',
      },
      jwt,
    );
    expect(response.statusCode, response.body).toBe(200);
    const id = String(response.json().deployment_id);
    await ctx.services.clusters.reconcile(id);
    return id;
  }

  /** Time passes, and the cloud's report reaches the row as the follow job would carry it. */
  async function elapse(ms: number, id: string) {
    ctx.clock.advance(ms);
    await ctx.services.clusters.reconcile(id);
  }

  const timeline = async (jwt: string, id: string, before?: string): Promise<TimelineResponse> => {
    const response = await get(ctx, `/api/cluster/timeline/${id}${before ? `?before=${before}` : ''}`, jwt);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  /** What the cost screens' rollups hold for the cluster per UTC day, in cents. */
  const rollupCents = async (id: string) =>
    new Map(
      (
        await rows<{ day: string; cents: string }>(
          ctx,
          sql`select to_char(day, 'YYYY-MM-DD') as day, sum(amount_cents)::text as cents from metering_daily_rollups
              where cluster_id = ${id} group by day`,
        )
      ).map((row) => [row.day, Number(row.cents)]),
    );

  it('joins the deployment steps, lifecycle events and each day’s charges, newest first by UTC day', async () => {
    ctx.clock.set('2026-03-10T20:00:00Z');
    const owner = await customer();
    const id = await createCluster(owner.jwt, owner.subscriptionId, 'Timeline_One');

    // While it deploys: the first step done, the second under way since then.
    const deploying = await timeline(owner.jwt, id);
    expect(deploying.days).toHaveLength(1);
    expect(deploying.days[0]!.entries.map((e) => e.kind === 'DEPLOYMENT_STEP' && [e.step, e.state])).toEqual([
      ['Creating resources', 'progress'],
      ['Submitting resource creation request', 'success'],
    ]);

    await elapse(20 * MINUTE, id);
    await elapse(45 * MINUTE, id);
    const owner2 = await logIn(ctx, owner.email);
    expect((await get(ctx, `/api/cluster/deployment-details/status/${id}`, owner2.jwt)).json().status).toBe('ONLINE');
    // Running past midnight UTC, charged hour by hour, then stopped the next morning.
    ctx.clock.advance(11 * HOUR);
    await ctx.services.metering.run();
    const jwt = (await logIn(ctx, owner.email)).jwt;
    expect((await get(ctx, `/api/cluster/stop/${id}`, jwt)).statusCode).toBe(200);
    await ctx.services.clusters.reconcile(id);
    await elapse(5 * MINUTE, id);
    await ctx.services.metering.run();

    const page = await timeline(jwt, id);
    expect(page.deployment_id).toBe(id);
    expect(page.next_before).toBeNull();
    expect(page.days.map((d) => d.day)).toEqual(['2026-03-11', '2026-03-10']);
    const [today, firstDay] = page.days;
    const charged = await rollupCents(id);
    expect(charged.get('2026-03-11')).toBeGreaterThan(0);
    // Each day opens with its charge, exactly what the rollups hold, then its events newest first.
    expect(today!.entries[0]).toEqual({ kind: 'CHARGE', amount: charged.get('2026-03-11')! / 100 });
    expect(today!.entries.slice(1).map((e) => e.kind === 'EVENT' && e.event)).toEqual(['CLUSTER_STOPPED', 'CLUSTER_STOP_REQUESTED']);
    expect(today!.entries[2]).toMatchObject({ caused_by: owner.email });
    expect(firstDay!.entries[0]).toEqual({ kind: 'CHARGE', amount: charged.get('2026-03-10')! / 100 });
    expect(firstDay!.entries.slice(1).map((e) => e.kind === 'DEPLOYMENT_STEP' && [e.step, e.state])).toEqual([
      ['Deploying the product', 'success'],
      ['Creating resources', 'success'],
      ['Submitting resource creation request', 'success'],
    ]);
    const times = firstDay!.entries.flatMap((e) => (e.kind === 'CHARGE' ? [] : [e.at]));
    expect([...times].sort().reverse()).toEqual(times);

    // Weeks later: pages of 14 days, the older one ending where the newer began, down to the creation day.
    ctx.clock.advance(20 * DAY);
    await ctx.services.metering.run();
    const later = (await logIn(ctx, owner.email)).jwt;
    const newest = await timeline(later, id);
    expect(newest.days).toHaveLength(TIMELINE_DAYS_PER_PAGE);
    expect(newest.days[0]!.day).toBe('2026-03-31');
    expect(newest.next_before).toBe('2026-03-18');
    // A stopped cluster still pays for its storage every day.
    expect(newest.days.every((d) => d.entries[0]!.kind === 'CHARGE')).toBe(true);
    const older = await timeline(later, id, newest.next_before!);
    expect(older.days.map((d) => d.day)).toEqual([
      '2026-03-17',
      '2026-03-16',
      '2026-03-15',
      '2026-03-14',
      '2026-03-13',
      '2026-03-12',
      '2026-03-11',
      '2026-03-10',
    ]);
    expect(older.next_before).toBeNull();
    expect(older.days.at(-1)!.entries.some((e) => e.kind === 'DEPLOYMENT_STEP')).toBe(true);
  });

  it('names the step a failed deployment failed at', async () => {
    ctx.clock.set('2026-05-02T08:00:00Z');
    const owner = await customer();
    const id = await createCluster(owner.jwt, owner.subscriptionId, 'doomed_cluster');
    await elapse(9 * MINUTE, id);
    const page = await timeline(owner.jwt, id);
    expect(page.days[0]!.entries.map((e) => e.kind === 'DEPLOYMENT_STEP' && [e.step, e.state])).toEqual([
      ['Creating resources', 'error'],
      ['Submitting resource creation request', 'success'],
    ]);
  });

  it("answers 404 for another account's cluster and 400 for a malformed day", async () => {
    const owner = await customer();
    const id = await createCluster(owner.jwt, owner.subscriptionId, 'Private_Timeline');
    const stranger = await customer();
    expect((await get(ctx, `/api/cluster/timeline/${id}`, stranger.jwt)).statusCode).toBe(404);
    const malformed = await get(ctx, `/api/cluster/timeline/${id}?before=2026-3-1`, owner.jwt);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().field_errors).toEqual({ before: CLUSTER_MESSAGES.timelineBeforeFormat });
  });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centsToAmount } from '@kumo/contract';
import { HOUR } from '../../clock.js';
import { clusterBody } from '../../../test/support/clusters.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, logIn, post, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { meteredOwner, newMeteredCluster, rows } from '../../../test/support/metering.js';

const kinds = await databaseKinds();

/**
 * The hard cap holds when starts and creates in one subscription arrive at once, whichever portal answers each: they
 * take the subscription's lock in turn, so each sees what the one before it let run, a cluster still deploying included.
 */
describe.each(kinds)('the hard cap under concurrent starts and creates on %s', { timeout: 120_000 }, (kind) => {
  let ctx: TestContext;
  /** A second portal on the same database, as a second server would be. */
  let other: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
    other = await startTestApp(kind, { cloud: { simTimeScale: 1 }, sameDatabaseAs: ctx });
  });
  afterAll(async () => {
    await other?.close();
    await ctx?.close();
  });

  /**
   * An owner whose subscription has Alpha (stopped after two charged hours) and the `stopped` clusters beside it, and
   * a hard-capped budget that leaves `room` cents for the next cluster hour; with the owner's fresh session.
   */
  async function cappedSubscription(month: string, stopped: string[], room: (hours: { running: number; stopped: number }) => number) {
    ctx.clock.set(month);
    const email = `race.${randomUUID().slice(0, 8)}@example.com`;
    const o = await meteredOwner(ctx, email);
    ctx.clock.advance(2 * HOUR);
    other.clock.set(ctx.clock.now().toISOString());
    await ctx.services.metering.run();
    await ctx.database.db.execute(sql`update clusters set status = 'OFFLINE' where id = ${o.clusterId}`);
    const ids: Record<string, string> = { Alpha: o.clusterId };
    for (const name of stopped) ids[name] = await newMeteredCluster(ctx, o.customer, o.subscriptionId, { name, status: 'OFFLINE' });
    const spend = (await ctx.services.metering.monthSpend(o.customer.accountId, [o.subscriptionId])).get(o.subscriptionId)!;
    const hourOf = async (state: 'running' | 'stopped') =>
      (await ctx.services.metering.hourlyRatePreview(o.customer.accountId, o.subscriptionId, false, undefined, state)).hourlyCents;
    const hours = { running: await hourOf('running'), stopped: await hourOf('stopped') };
    const { jwt } = await logIn(ctx, email);
    const amount = spend.consumedCents + 2 * spend.engineHourlyCents + spend.hourlyCents + room(hours);
    const budget = await send(
      ctx,
      'PUT',
      `/api/subscription/${o.subscriptionId}/budget`,
      { monthly_amount: centsToAmount(amount), stop_clusters_at_limit: true },
      jwt,
    );
    expect(budget.statusCode, budget.body).toBe(200);
    return { ...o, ids, jwt, hours };
  }

  const statusesOf = async (subscriptionId: string) =>
    Object.fromEntries(
      (
        await rows<{ name: string; status: string }>(ctx, sql`select name, status from clusters where subscription_id = ${subscriptionId}`)
      ).map((row) => [row.name, row.status]),
    );

  /** Exactly one of the two answers went through; the other is the cap's refusal. */
  function expectOneRefused(answers: LightMyRequestResponse[]) {
    expect(answers.map((answer) => answer.statusCode).sort(), answers.map((answer) => answer.body).join('\n')).toEqual([200, 422]);
    expect(errorCode(answers.find((answer) => answer.statusCode === 422)!)).toBe('BUDGET_EXCEEDED');
  }

  it('starts one of four stopped clusters started at once through two portals when the budget has room for one', async () => {
    const o = await cappedSubscription('2026-08-03T00:00:00Z', ['Beta', 'Gamma', 'Delta'], (hours) => hours.running - hours.stopped);
    const answers = await Promise.all(Object.values(o.ids).map((id, i) => get(i % 2 ? other : ctx, `/api/cluster/start/${id}`, o.jwt)));
    expect(answers.map((answer) => answer.statusCode).sort(), answers.map((answer) => answer.body).join('\n')).toEqual([
      200, 422, 422, 422,
    ]);
    for (const refused of answers.filter((answer) => answer.statusCode === 422)) expect(errorCode(refused)).toBe('BUDGET_EXCEEDED');
    expect(Object.values(await statusesOf(o.subscriptionId)).sort()).toEqual(['OFFLINE', 'OFFLINE', 'OFFLINE', 'STARTING']);
  });

  it('lets only one of a start and a create made at once through two portals run when the budget has room for one', async () => {
    const o = await cappedSubscription('2026-09-03T00:00:00Z', [], (hours) => hours.running);
    const answers = await Promise.all([
      get(ctx, `/api/cluster/start/${o.ids.Alpha}`, o.jwt),
      post(other, '/api/cluster/create', clusterBody(o.subscriptionId, { cluster_name: 'Beta', cidr: '10.1.0.0/16' }), o.jwt),
    ]);
    expectOneRefused(answers);
    // The start went through and nothing was created, or the create went through and Alpha stayed stopped.
    expect(await statusesOf(o.subscriptionId)).toEqual(
      answers[0].statusCode === 200 ? { Alpha: 'STARTING' } : { Alpha: 'OFFLINE', Beta: 'DEPLOYING' },
    );
  });

  it('counts a cluster still deploying at its running hour: a second create or a start after it is refused', async () => {
    const o = await cappedSubscription('2026-10-03T00:00:00Z', [], (hours) => hours.running);
    const created = await post(
      ctx,
      '/api/cluster/create',
      clusterBody(o.subscriptionId, { cluster_name: 'Beta', cidr: '10.1.0.0/16' }),
      o.jwt,
    );
    expect(created.statusCode, created.body).toBe(200);
    const second = await post(
      ctx,
      '/api/cluster/create',
      clusterBody(o.subscriptionId, { cluster_name: 'Gamma', cidr: '10.2.0.0/16' }),
      o.jwt,
    );
    expect([second.statusCode, errorCode(second)]).toEqual([422, 'BUDGET_EXCEEDED']);
    const start = await get(ctx, `/api/cluster/start/${o.ids.Alpha}`, o.jwt);
    expect([start.statusCode, errorCode(start)]).toEqual([422, 'BUDGET_EXCEEDED']);
    expect(await statusesOf(o.subscriptionId)).toEqual({ Alpha: 'OFFLINE', Beta: 'DEPLOYING' });
  });
});

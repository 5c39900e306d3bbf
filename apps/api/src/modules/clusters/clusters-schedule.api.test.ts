import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_MESSAGES } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';

const kinds = await databaseKinds();

describe.each(kinds)('cluster schedules on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
  });
  afterAll(() => ctx.close());
  const { customer, status, elapse, deployOnline } = clusterSteps(() => ctx);

  it("runs a weekly schedule in the customer's time zone and writes who acted", async () => {
    ctx.clock.set('2026-03-17T15:00:00Z'); // a Tuesday, 11:00 in New York (daylight saving time)
    const { email, subscriptionId, jwt: firstJwt } = await customer();
    let jwt = firstJwt;
    const id = await deployOnline(jwt, subscriptionId, { cluster_name: 'Scheduled' });
    expect((await get(ctx, `/api/cluster/schedule/${id}`, jwt)).json()).toEqual({
      deployment_id: id,
      enabled: false,
      time_zone: 'UTC',
      rules: [],
      next_run_at: null,
      next_action: null,
    });
    const badZone = await send(ctx, 'PUT', `/api/cluster/schedule/${id}`, { enabled: true, rules: [] }, jwt, {
      usertimezone: 'Mars/Olympus',
    });
    expect(badZone.statusCode).toBe(400);
    const badTime = await send(
      ctx,
      'PUT',
      `/api/cluster/schedule/${id}`,
      { enabled: true, rules: [{ day: 'MON', action: 'STOP', time: '25:00' }] },
      jwt,
    );
    expect(badTime.statusCode).toBe(400);
    // Turning the schedule on with no start or stop time would save a schedule that never acts: refused, said on the field.
    const noRules = await send(ctx, 'PUT', `/api/cluster/schedule/${id}`, { enabled: true, rules: [] }, jwt);
    expect(noRules.statusCode).toBe(400);
    expect(noRules.json().field_errors).toEqual({ enabled: CLUSTER_MESSAGES.scheduleNeedsRules });
    // Off with no rules is fine: that is how a schedule is cleared.
    expect((await send(ctx, 'PUT', `/api/cluster/schedule/${id}`, { enabled: false, rules: [] }, jwt)).statusCode).toBe(200);

    // Stop at 19:00 New York time every Tuesday, start 08:00 Wednesdays.
    const now = ctx.clock.now();
    const saved = await send(
      ctx,
      'PUT',
      `/api/cluster/schedule/${id}`,
      {
        enabled: true,
        rules: [
          { day: 'WED', action: 'START', time: '08:00' },
          { day: 'TUE', action: 'STOP', time: '19:00' },
        ],
      },
      jwt,
      { usertimezone: 'America/New_York' },
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const schedule = saved.json();
    expect(schedule.time_zone).toBe('America/New_York');
    expect(schedule.rules[0]).toEqual({ day: 'TUE', action: 'STOP', time: '19:00' });
    expect(schedule.next_action).toBe('STOP');
    const stopAt = new Date(schedule.next_run_at);
    expect(stopAt > now).toBe(true);
    expect(
      new Intl.DateTimeFormat('en-US', {
        timeZone: 'America/New_York',
        hour: 'numeric',
        minute: 'numeric',
        hourCycle: 'h23',
        weekday: 'short',
      }).format(stopAt),
    ).toBe('Tue 19:00');

    ctx.clock.set(new Date(stopAt.getTime() - MINUTE));
    expect(await ctx.services.clusters.runSchedules()).toBe(0);
    ctx.clock.set(new Date(stopAt.getTime() + MINUTE));
    expect(await ctx.services.clusters.runSchedules()).toBe(1);
    jwt = (await logIn(ctx, email)).jwt; // days went by: a fresh session
    const stopping = await get(ctx, `/api/cluster/deployment-details/status/${id}`, jwt);
    expect(stopping.json().status, stopping.body).toBe('STOPPING');
    expect(await ctx.services.clusters.runSchedules()).toBe(0); // acts once
    await elapse(simMinutes(5), id);
    expect((await status(jwt, id)).status).toBe('OFFLINE');
    const logs = (await get(ctx, `/api/cluster/get-audit-logs/${id}`, jwt)).json().page_content.content;
    expect(logs[1]).toMatchObject({ event: 'CLUSTER_STOP_REQUESTED', caused_by: 'Schedule' });
  });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, AUTO_STOP_MESSAGES, CLUSTER_MESSAGES } from '@kumo/contract';
import { peopleAround, signedUpOwner, type AccountPerson } from '../../../test/support/account-people.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, post, send, startTestApp, type TestContext, type Tokens } from '../../../test/support/harness.js';
import { newMeteredCluster, rows } from '../../../test/support/metering.js';
import { recordQuery } from '../../../test/support/auto-stop.js';

const kinds = await databaseKinds();

/** GET/PUT /api/cluster/auto-stop/{id}: the answer's shape, the contract's field errors and who may call them. */
describe.each(kinds)('cluster auto-stop calls on %s', (kind) => {
  let ctx: TestContext;
  let owner: AccountPerson;
  let people: Awaited<ReturnType<typeof peopleAround>>;
  let clusterId: string;
  let subscriptionId: string;
  const url = (id = clusterId) => `/api/cluster/auto-stop/${id}`;
  const put = (body: unknown, jwt = owner.tokens.jwt, id = clusterId) => send(ctx, 'PUT', url(id), body, jwt);
  const { deployOnline } = clusterSteps(() => ctx);

  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
    const tag = randomUUID().slice(0, 8);
    owner = await signedUpOwner(ctx, `autostop.${tag}@example.com`, 'Ola Owner');
    people = await peopleAround(ctx, owner, `autostop.${tag}`);
    subscriptionId = await createSubscription(ctx, owner.tokens.jwt, 'Idle');
    clusterId = await deployOnline(owner.tokens.jwt, subscriptionId, { cluster_name: 'Sleepy' });
  });
  afterAll(() => ctx.close());

  it('gives a new cluster 60 idle minutes, counted on the cloud’s clock from when it came online', async () => {
    const response = await get(ctx, url(), owner.tokens.jwt);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      deployment_id: clusterId,
      idle_minutes: 60,
      restart_when_funded: false,
      last_activity_at: null,
      wake_sources: [],
      saved_this_month: 0,
    });
    // SIM_TIME_SCALE 60 in these tests: the cloud's 60 minutes pass in 60 real seconds after the cluster came online.
    const [online] = await rows<{ at: Date }>(ctx, sql`select status_updated_at as at from clusters where id = ${clusterId}`);
    expect(new Date(body.stops_at).getTime() - new Date(online!.at).getTime()).toBe(60_000);
  });

  it('leaves auto-stop off on a cluster made before it existed', async () => {
    const older = await newMeteredCluster(ctx, { accountId: owner.accountId, userId: owner.userId }, subscriptionId, {
      name: 'Older',
      status: 'ONLINE',
    });
    expect((await get(ctx, url(older), owner.tokens.jwt)).json()).toMatchObject({ idle_minutes: null, stops_at: null });
  });

  it('refuses idle minutes outside 10 to 1,440 or not whole, and a restart choice that is not yes or no, on the field', async () => {
    for (const idle of [9, 1441, 30.5, '30', undefined, true]) {
      const response = await put({ idle_minutes: idle });
      expect(response.statusCode, String(idle)).toBe(400);
      expect(response.json().field_errors).toEqual({ idle_minutes: AUTO_STOP_MESSAGES.idleMinutesRange });
    }
    const flag = await put({ idle_minutes: 30, restart_when_funded: 'yes' });
    expect(flag.statusCode).toBe(400);
    expect(flag.json().field_errors).toEqual({ restart_when_funded: AUTO_STOP_MESSAGES.restartFlag });
    expect((await get(ctx, url(), owner.tokens.jwt)).json().idle_minutes).toBe(60);
  });

  it('turns auto-stop off and on, keeping restart when funded unless it is given', async () => {
    const off = await put({ idle_minutes: null, restart_when_funded: true });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ idle_minutes: null, restart_when_funded: true, stops_at: null });
    const on = await put({ idle_minutes: 10 });
    expect(on.json()).toMatchObject({ idle_minutes: 10, restart_when_funded: true });
    expect(on.json().stops_at).not.toBeNull();
    expect((await put({ idle_minutes: 1440, restart_when_funded: false })).json()).toMatchObject({
      idle_minutes: 1440,
      restart_when_funded: false,
    });
  });

  it('groups the last 24 hours of activity by source, address, user and client, leaving out refused attempts', async () => {
    const now = ctx.clock.now().getTime();
    await recordQuery(ctx, clusterId, { at: new Date(now - 25 * 3_600_000) }); // older than a day
    await recordQuery(ctx, clusterId, { at: new Date(now - 60_000) });
    await recordQuery(ctx, clusterId, { at: new Date(now - 30_000) });
    await recordQuery(ctx, clusterId, { at: new Date(now - 20_000), address: '198.51.100.9', agent: 'curl/8.5', status: 'REFUSED' });
    await recordQuery(ctx, clusterId, {
      at: new Date(now - 10_000),
      source: 'CONSOLE',
      address: '192.0.2.1',
      agent: 'Mozilla/5.0',
      user: 'autostop@example.com',
      status: 'FAILED',
    });
    const body = (await get(ctx, url(), owner.tokens.jwt)).json();
    expect(body.last_activity_at).toBe(new Date(now - 10_000).toISOString());
    expect(body.wake_sources).toEqual([
      {
        source: 'CONSOLE',
        client_address: '192.0.2.1',
        user: 'autostop@example.com',
        user_agent: 'Mozilla/5.0',
        queries: 1,
        last_at: new Date(now - 10_000).toISOString(),
      },
      {
        source: 'ENDPOINT',
        client_address: '203.0.113.7',
        user: 'kumo_admin',
        user_agent: 'DBeaver',
        queries: 2,
        last_at: new Date(now - 30_000).toISOString(),
      },
    ]);
  });

  it('lets the owner, an admin and a WRITE token change it; a READ token and a staff view only read it', async () => {
    expect((await put({ idle_minutes: 20 }, people.admin.jwt)).json().idle_minutes).toBe(20);
    const token = async (scope: 'READ' | 'WRITE') => {
      const body = { name: `auto-stop ${scope}`, scope, expires_in_days: 30, allowed_ips: [] };
      const created = await post(ctx, '/api/user/api-tokens', body, owner.tokens.jwt);
      expect(created.statusCode, created.body).toBe(200);
      return String(created.json().token);
    };
    const writer = await token('WRITE');
    expect((await put({ idle_minutes: 25 }, writer)).json().idle_minutes).toBe(25);
    const reader = await token('READ');
    for (const [jwt, code] of [
      [reader, 'TOKEN_SCOPE'],
      [people.staffView.jwt, 'READ_ONLY_VIEW'],
    ] as const) {
      expect((await get(ctx, url(), jwt)).json().idle_minutes).toBe(25);
      const refused = await put({ idle_minutes: 30 }, jwt);
      expect([refused.statusCode, errorCode(refused)]).toEqual([403, code]);
    }
    const staff = await put({ idle_minutes: 30 }, people.staffView.jwt);
    expect(staff.json().errorDetails.error_message).toBe(ADMIN_MESSAGES.readOnlyView);
    expect((await get(ctx, url(), owner.tokens.jwt)).json().idle_minutes).toBe(25);
  });

  it('refuses a cluster member and anyone not signed in, and finds nothing for another account or an unknown cluster', async () => {
    const member: Tokens = people.member;
    for (const response of [await get(ctx, url(), member.jwt), await put({ idle_minutes: 30 }, member.jwt)]) {
      expect(response.statusCode).toBe(403);
    }
    for (const response of [
      await get(ctx, url(), people.stranger.jwt),
      await put({ idle_minutes: 30 }, people.stranger.jwt),
      await get(ctx, url(randomUUID()), owner.tokens.jwt),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().errorDetails.error_message).toBe(CLUSTER_MESSAGES.clusterNotFound);
    }
    expect((await get(ctx, url(), undefined)).statusCode).toBe(401);
    expect((await send(ctx, 'PUT', url(), { idle_minutes: 30 }, undefined)).statusCode).toBe(401);
    expect((await get(ctx, url(), owner.tokens.jwt)).json().idle_minutes).toBe(25);
  });
});

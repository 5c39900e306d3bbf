import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import { CLUSTER_MESSAGES, MESSAGES } from '@kumo/contract';
import { createServices } from '../../services.js';
import { databaseKinds } from '../../../test/support/databases.js';
import {
  RecordingQueue,
  RecordingTransport,
  TEST_SECRET,
  errorCode,
  errorMessage,
  get,
  latestOtp,
  post,
  send,
  startTestApp,
  type TestContext,
} from '../../../test/support/harness.js';
import { CLUSTER_JOBS } from './index.js';
import { CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';

const kinds = await databaseKinds();

describe.each(kinds)('cluster lifecycle on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
  });
  afterAll(() => ctx.close());
  const { customer, createCluster, status, elapse, deployOnline } = clusterSteps(() => ctx);

  it('walks a deployment through its honest states, then stop and start, refusing every action the status does not offer', async () => {
    const { email, jwt, subscriptionId } = await customer();
    const id = await createCluster(jwt, subscriptionId, { cluster_name: 'Walker' });
    expect(ctx.jobs.sent).toContainEqual({ queue: CLUSTER_JOBS.follow, data: { deploymentId: id } });

    const view = (await get(ctx, `/api/cluster/view?subscriptionId=${subscriptionId}`, jwt)).json();
    expect(view).toHaveLength(1);
    expect(view[0]).toMatchObject({ subscription_id: subscriptionId, subscription_name: 'Analytics' });
    expect(view[0].clusters[0]).toMatchObject({
      deployment_id: id,
      cluster_name: 'Walker',
      status: 'DEPLOYING',
      cluster_capacity: 0,
      region: 'us-east-1',
      backup_region: null,
      cidr: '10.0.0.0/16',
      kumo_version: '2026.10.1',
      deployed_by: 'Cleo Cluster',
      email_id: email,
      subscription_balance: 500,
      kumo_manager_url: null,
      kumo_url: null,
      deployed_on: null,
    });
    // Nothing but looking is possible while deploying.
    for (const action of ['start', 'stop']) {
      const refused = await get(ctx, `/api/cluster/${action}/${id}`, jwt);
      expect(refused.statusCode).toBe(409);
      expect(errorCode(refused)).toBe('CLUSTER_STATE_CONFLICT');
    }
    expect(
      (await post(ctx, '/api/user/operation', { action_name: 'customer_delete_cluster', action_payload: { deployment_id: id } }, jwt))
        .statusCode,
    ).toBe(409);

    await elapse(simMinutes(5), id);
    expect(await status(jwt, id)).toMatchObject({
      status: 'DEPLOYING',
      cluster_stack_status: 'CREATE_IN_PROGRESS',
      kumo_cluster_deployment_status: null,
      completed_at: null,
    });

    await elapse(simMinutes(9), id); // 14 minutes: resources exist, the product is being deployed
    expect(await status(jwt, id)).toMatchObject({
      status: 'DEPLOYING',
      cluster_stack_status: 'CREATE_COMPLETE',
      kumo_cluster_deployment_status: 'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS',
    });

    // Nodes come up one by one: capacity (query engines online) grows step by step.
    const capacities: number[] = [];
    for (let minute = 14; minute < 60; minute += 5) {
      await elapse(simMinutes(5), id);
      capacities.push((await status(jwt, id)).cluster_capacity);
    }
    expect(capacities).toEqual([...capacities].sort((a, b) => a - b));
    expect(new Set(capacities).size).toBeGreaterThan(2);
    const current = (await get(ctx, `/api/cluster/details/${id}?detail=CURRENT`, jwt)).json();
    expect(current.nodes).toHaveLength(8);

    await elapse(simMinutes(5), id);
    const online = await status(jwt, id);
    expect(online).toMatchObject({
      status: 'ONLINE',
      cluster_capacity: 5,
      kumo_cluster_deployment_status: 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
    });
    expect(online.completed_at).not.toBeNull();
    const [cluster] = (await get(ctx, '/api/cluster/view', jwt)).json()[0].clusters;
    expect(cluster.deployed_on).toBe(online.completed_at);
    // The list's addresses carry no ticket: each person asks for one of their own when opening a page.
    expect(cluster.kumo_manager_url).toMatch(/^http:\/\/portal\.test\/sim\/kumo\/kumo-.+\/manager\/$/);
    expect(cluster.kumo_url).toMatch(/\/portal\/$/);

    const details = (await get(ctx, `/api/cluster/details/${id}?detail=DEPLOYMENT`, jwt)).json();
    expect(details.cluster_configurations).toContainEqual({
      service_name: 'Query Engines',
      node_count: 5,
      instance_type: expect.any(String),
      core: expect.any(Number),
    });
    expect(details.nodes.every((node: { status: string }) => node.status === 'Online')).toBe(true);
    expect(details).toMatchObject({
      cluster_name: 'Walker',
      cluster_description: 'Quarterly sales analytics',
      cloud_provider: 'AWS',
      detail: 'DEPLOYMENT',
    });

    // The simulated Manager and Web Portal answer while online, to an address with the caller's single-sign-on ticket.
    const ticketed = async (page: string) => {
      const address = new URL((await get(ctx, `/api/cluster/kumo/sso/${id}?page=${page}`, jwt)).json().url);
      return address.pathname + address.search;
    };
    const managerPath = await ticketed('manager');
    const manager = await ctx.app.inject({ method: 'GET', url: managerPath });
    expect(manager.statusCode).toBe(200);
    expect(manager.body).toContain('kmuser');
    expect((await ctx.app.inject({ method: 'GET', url: await ticketed('portal') })).body).toContain('Admin');

    expect((await get(ctx, `/api/cluster/start/${id}`, jwt)).statusCode).toBe(409);
    const stopping = await get(ctx, `/api/cluster/stop/${id}`, jwt);
    expect(stopping.statusCode).toBe(200);
    expect(stopping.json()).toEqual({ deployment_id: id, status: 'STOPPING', message: CLUSTER_MESSAGES.stopStarted });
    for (const action of ['start', 'stop']) expect((await get(ctx, `/api/cluster/${action}/${id}`, jwt)).statusCode).toBe(409);
    expect(
      (await post(ctx, '/api/user/operation', { action_name: 'customer_delete_cluster', action_payload: { deployment_id: id } }, jwt))
        .statusCode,
    ).toBe(409);

    await elapse(simMinutes(2), id);
    expect((await status(jwt, id)).status).toBe('STOPPING');
    expect((await ctx.app.inject({ method: 'GET', url: managerPath })).statusCode).toBe(503);
    await elapse(simMinutes(3), id); // stop completes within 5 minutes
    expect(await status(jwt, id)).toMatchObject({ status: 'OFFLINE', cluster_capacity: 0 });
    expect((await get(ctx, '/api/cluster/view', jwt)).json()[0].clusters[0]).toMatchObject({ kumo_manager_url: null, kumo_url: null });
    expect((await get(ctx, `/api/cluster/stop/${id}`, jwt)).statusCode).toBe(409);

    const starting = await send(ctx, 'POST', `/api/cluster/start/${id}`, undefined, jwt);
    expect(starting.statusCode).toBe(200);
    expect(starting.json().status).toBe('STARTING');
    for (const action of ['start', 'stop']) expect((await get(ctx, `/api/cluster/${action}/${id}`, jwt)).statusCode).toBe(409);
    await elapse(simMinutes(10), id);
    expect(await status(jwt, id)).toMatchObject({ status: 'ONLINE', cluster_capacity: 5 });
    // A ticket opens its page once: the manager is opened again with a new one (after the audit log's story below).
    expect((await ctx.app.inject({ method: 'GET', url: managerPath })).statusCode).toBe(401);

    // The audit log tells the story, newest first, with who caused each step.
    const logs = (await get(ctx, `/api/cluster/get-audit-logs/${id}?page=0&size=20`, jwt)).json();
    const events = (logs.page_content.content as { event: string; caused_by: string }[]).map(
      (entry) => `${entry.event}:${entry.caused_by}`,
    );
    expect(events).toEqual([
      'CLUSTER_STARTED:System',
      `CLUSTER_START_REQUESTED:${email}`,
      'CLUSTER_STOPPED:System',
      `CLUSTER_STOP_REQUESTED:${email}`,
      // Opening the Web Portal, then the manager, with a ticket of one's own.
      `CLUSTER_MANAGER_OPENED:${email}`,
      `CLUSTER_MANAGER_OPENED:${email}`,
      'CLUSTER_DEPLOYED:System',
      'CLUSTER_RESOURCES_CREATED:System',
      `CLUSTER_CREATE_REQUESTED:${email}`,
    ]);
    expect(logs.start_date).toBe('2026-03-01T00:00:00.000Z');
    expect(logs.end_date).toBe('2026-04-01T00:00:00.000Z');
    const paged = (await get(ctx, `/api/cluster/get-audit-logs/${id}?page=1&size=3&startDate=2026-03-01T00:00:00`, jwt)).json();
    expect(paged.page_content.totalPages).toBe(3);
    expect(paged.page_content.content.map((entry: { event: string }) => entry.event)).toEqual([
      'CLUSTER_STOP_REQUESTED',
      'CLUSTER_MANAGER_OPENED',
      'CLUSTER_MANAGER_OPENED',
    ]);
    expect((await get(ctx, `/api/cluster/get-audit-logs/${id}?startDate=2026-02-01T00:00:00`, jwt)).json().page_content).toEqual({
      content: [],
      totalPages: 0,
    });
    expect((await get(ctx, `/api/cluster/get-audit-logs/${id}?startDate=2026-02-15T00:00:00`, jwt)).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: await ticketed('manager') })).statusCode).toBe(200);
  });

  it('refuses to start a cluster when the balance is below $100', async () => {
    const { jwt, subscriptionId } = await customer();
    const id = await deployOnline(jwt, subscriptionId, { cluster_name: 'Thrifty' });
    await get(ctx, `/api/cluster/stop/${id}`, jwt);
    await elapse(simMinutes(5), id);
    await ctx.database.db.execute(sql`update subscriptions set balance_cents = 9999 where id = ${subscriptionId}`);
    const refused = await get(ctx, `/api/cluster/start/${id}`, jwt);
    expect(refused.statusCode).toBe(422);
    expect(errorMessage(refused)).toBe(MESSAGES.minimumBalance);
    expect((await status(jwt, id)).status).toBe('OFFLINE');
  });

  it('shows a failed deployment as FAILED after the rollback, and lets only deletion follow', async () => {
    const { email, jwt, subscriptionId } = await customer();
    const id = await createCluster(jwt, subscriptionId, { cluster_name: 'doomed_cluster' });
    await elapse(simMinutes(9), id);
    expect(await status(jwt, id)).toMatchObject({
      status: 'FAILED',
      cluster_stack_status: 'CREATE_FAILED',
      kumo_cluster_deployment_status: null,
    });
    expect((await status(jwt, id)).completed_at).not.toBeNull();
    for (const action of ['start', 'stop']) expect((await get(ctx, `/api/cluster/${action}/${id}`, jwt)).statusCode).toBe(409);
    const logs = (await get(ctx, `/api/cluster/get-audit-logs/${id}`, jwt)).json().page_content.content;
    expect(logs[0]).toMatchObject({ event: 'CLUSTER_DEPLOYMENT_FAILED', caused_by: 'System' });
    const operation = await post(
      ctx,
      '/api/user/operation',
      { action_name: 'customer_delete_cluster', action_payload: { deployment_id: id } },
      jwt,
    );
    expect(operation.statusCode).toBe(200);
    // A failed cluster's rolled-back stack is deleted like any other.
    const otp = await latestOtp(ctx, email);
    const approved = await post(ctx, '/api/user/operation/authenticate', { operation_id: operation.json().operation_id, otp }, jwt);
    expect(approved.statusCode, approved.body).toBe(200);
    await elapse(simMinutes(8), id);
    expect((await status(jwt, id)).status).toBe('DELETED');
  });

  it('resumes a deployment after a restart: new services on the same database pick up the busy cluster', async () => {
    const { jwt, subscriptionId } = await customer();
    const id = await createCluster(jwt, subscriptionId, { cluster_name: 'Survivor' });
    await elapse(simMinutes(20), id);
    expect((await status(jwt, id)).status).toBe('DEPLOYING');

    // A second portal process on the same database, with its own queue; the old one is gone.
    const queue = new RecordingQueue();
    const restarted = createServices({
      db: ctx.database.db,
      clock: ctx.clock,
      jobs: queue,
      mailTransport: new RecordingTransport(),
      mailFrom: 'Kumo Cloud <no-reply@kumo.test>',
      authSecret: TEST_SECRET,
      publicUrl: 'http://portal.test',
      logger: pino({ level: 'silent' }),
      cloud: { simTimeScale: 60 },
    });
    ctx.clock.advance(simMinutes(45));
    await restarted.clusters.sweep();
    expect((await status(jwt, id)).status).toBe('ONLINE');

    // The same for a stop left half-way: the command reached the cloud, then the portal went down.
    await get(ctx, `/api/cluster/stop/${id}`, jwt);
    await ctx.services.clusters.reconcile(id);
    expect((await ctx.database.db.execute(sql`select status from clusters where id = ${id}`)).rows[0]).toEqual({ status: 'STOPPING' });
    ctx.clock.advance(simMinutes(6));
    await restarted.clusters.sweep();
    const [row] = (await ctx.database.db.execute(sql`select status from clusters where id = ${id}`)).rows as { status: string }[];
    expect(row!.status).toBe('OFFLINE');
  });
});

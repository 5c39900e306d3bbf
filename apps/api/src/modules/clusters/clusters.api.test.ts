import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { sql } from 'drizzle-orm';
import { CLUSTER_MESSAGES, MESSAGES, clusterDeletionStartedMessage } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { createServices } from '../../services.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import {
  RecordingQueue,
  RecordingTransport,
  TEST_SECRET,
  errorCode,
  errorMessage,
  get,
  latestOtp,
  logIn,
  post,
  send,
  signUp,
  startTestApp,
  type TestContext,
} from '../../../test/support/harness.js';
import { CLUSTER_JOBS } from './index.js';

const kinds = await databaseKinds();
let counter = 0;
const freshEmail = () => `clusters${++counter}.${Date.now()}@example.com`;
const PASSWORD = 'Sup3r#Secret-pw';

/** At SIM_TIME_SCALE 60 one simulated minute is one real second. */
const simMinutes = (minutes: number) => minutes * 1000;

describe.each(kinds)('clusters on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 60, simFailPattern: '^doomed' } });
  });
  afterAll(() => ctx.close());

  /** A signed-up owner with a funded first subscription (the $500 sign-up credits). */
  async function customer(subscriptionName = 'Analytics') {
    const email = freshEmail();
    const { jwt } = await signUp(ctx, email, 'Cleo Cluster');
    const subscriptionId = await createSubscription(ctx, jwt, subscriptionName);
    return { email, jwt, subscriptionId };
  }

  const body = (subscriptionId: string, overrides: Record<string, unknown> = {}) => ({
    subscription_id: subscriptionId,
    cluster_name: 'Sales_Cluster-1',
    description: 'Quarterly sales analytics',
    cloud_provider: 'AWS',
    enable_dr_flag: false,
    cidr: '10.0.0.0/16',
    region: 'us-east-1',
    backup_region: null,
    password: PASSWORD,
    kumo_version: '2026.10.1',
    ...overrides,
  });

  async function createCluster(jwt: string, subscriptionId: string, overrides: Record<string, unknown> = {}) {
    const response = await post(ctx, '/api/cluster/create', body(subscriptionId, overrides), jwt);
    expect(response.statusCode, response.body).toBe(200);
    const id = String(response.json().deployment_id);
    // The follow job runs at once in the portal: the stack request reaches the cloud now.
    await ctx.services.clusters.reconcile(id);
    return id;
  }

  const status = async (jwt: string, id: string) => (await get(ctx, `/api/cluster/deployment-details/status/${id}`, jwt)).json();

  /** Moves time on and lets the cloud's report reach the row, as the follow job would. */
  async function elapse(ms: number, id: string) {
    // First what the follow job does right after a request (the command reaches the cloud), then time passes.
    await ctx.services.clusters.reconcile(id);
    ctx.clock.advance(ms);
    await ctx.services.clusters.reconcile(id);
  }

  async function deployOnline(jwt: string, subscriptionId: string, overrides: Record<string, unknown> = {}) {
    const id = await createCluster(jwt, subscriptionId, overrides);
    await elapse(simMinutes(61), id);
    expect((await status(jwt, id)).status).toBe('ONLINE');
    return id;
  }

  it('offers regions with their backup regions, versions by the preview flag, and a free /16', async () => {
    const { jwt, subscriptionId } = await customer();
    const regions = (await get(ctx, '/api/cluster/region-mapping?cloudProvider=AWS', jwt)).json().region_mapping;
    expect(regions).toContainEqual({ region: 'us-east-1', backup_regions: ['us-east-2', 'us-west-2'] });

    expect((await get(ctx, '/api/cluster/check-kumo-ea-version', jwt)).json()).toEqual({ kumo_ea_version_enabled: false });
    const ga = (await get(ctx, '/api/cluster/kumo-versions', jwt)).json().kumo_versions as { version: string; default: boolean }[];
    expect(ga.filter((v) => v.default)).toHaveLength(1);
    expect(ga.some((v) => v.version.includes('preview'))).toBe(false);
    // A preview version is refused until the preview release is on.
    const refused = await post(ctx, '/api/cluster/create', body(subscriptionId, { kumo_version: '2027.01.0-preview.2' }), jwt);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().field_errors).toEqual({ kumo_version: CLUSTER_MESSAGES.versionUnknown });

    const me = (await get(ctx, '/api/user/detail', jwt)).json();
    await ctx.services.accounts.setPreviewEnabled(me.accounts[0].account_id, true);
    expect((await get(ctx, '/api/cluster/check-kumo-ea-version', jwt)).json()).toEqual({ kumo_ea_version_enabled: true });
    const withPreview = (await get(ctx, '/api/cluster/kumo-versions', jwt)).json().kumo_versions as { version: string }[];
    expect(withPreview.some((v) => v.version === '2027.01.0-preview.2')).toBe(true);

    const cidr = (query: string) => get(ctx, `/api/cluster/cidr?${query}`, jwt);
    expect((await cidr('deploymentRegion=us-east-1&enableDrFlag=false&cloudProvider=AWS')).json()).toEqual({ cidr: '10.0.0.0/16' });
    await createCluster(jwt, subscriptionId, {
      cidr: '10.0.0.0/16',
      region: 'us-east-1',
      enable_dr_flag: true,
      backup_region: 'us-west-2',
    });
    expect((await cidr('deploymentRegion=us-east-1&enableDrFlag=false')).json().cidr).toBe('10.1.0.0/16');
    // us-west-2 holds the first cluster's backups: a cluster there with DR to it must avoid 10.0/16 too.
    expect((await cidr('deploymentRegion=us-west-2&enableDrFlag=false')).json().cidr).toBe('10.1.0.0/16');
    expect((await cidr('deploymentRegion=eu-west-1&enableDrFlag=false')).json().cidr).toBe('10.0.0.0/16');
    expect((await cidr('deploymentRegion=eu-west-1&enableDrFlag=true&backupRegion=eu-central-1')).json().cidr).toBe('10.0.0.0/16');
    const unknown = await cidr('deploymentRegion=mars-1&enableDrFlag=false');
    expect(unknown.statusCode).toBe(400);
    expect((await cidr('deploymentRegion=eu-west-1&enableDrFlag=true&backupRegion=us-east-1')).statusCode).toBe(400);
    expect((await cidr('enableDrFlag=false')).statusCode).toBe(400);
  });

  it('checks every create rule on the server, with a map of field errors', async () => {
    const { jwt, subscriptionId } = await customer();
    const expectFieldError = async (overrides: Record<string, unknown>, field: string, message: string) => {
      const response = await post(ctx, '/api/cluster/create', body(subscriptionId, overrides), jwt);
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().field_errors?.[field], JSON.stringify(overrides)).toBe(message);
    };
    await expectFieldError({ cluster_name: '' }, 'cluster_name', CLUSTER_MESSAGES.nameRequired);
    await expectFieldError({ cluster_name: 'ab' }, 'cluster_name', CLUSTER_MESSAGES.nameLength);
    await expectFieldError({ cluster_name: 'a'.repeat(51) }, 'cluster_name', CLUSTER_MESSAGES.nameLength);
    await expectFieldError({ cluster_name: '1abc' }, 'cluster_name', CLUSTER_MESSAGES.nameFormat);
    await expectFieldError({ cluster_name: 'ab1cd' }, 'cluster_name', CLUSTER_MESSAGES.nameFormat);
    await expectFieldError({ cluster_name: 'abc$' }, 'cluster_name', CLUSTER_MESSAGES.nameFormat);
    await expectFieldError({ description: 'x'.repeat(201) }, 'description', CLUSTER_MESSAGES.descriptionTooLong);
    await expectFieldError({ cidr: '' }, 'cidr', CLUSTER_MESSAGES.cidrRequired);
    await expectFieldError({ cidr: '10.0.0.256/16' }, 'cidr', CLUSTER_MESSAGES.cidrFormat);
    await expectFieldError({ cidr: '10.0.0.0/33' }, 'cidr', CLUSTER_MESSAGES.cidrFormat);
    await expectFieldError({ cidr: '10.0.0.0' }, 'cidr', CLUSTER_MESSAGES.cidrFormat);
    await expectFieldError({ cidr: '10.0.0.0/8' }, 'cidr', CLUSTER_MESSAGES.cidrPrefixRange);
    await expectFieldError({ cidr: '10.0.0.1/16' }, 'cidr', CLUSTER_MESSAGES.cidrNetworkAddress);
    await expectFieldError({ region: '' }, 'region', CLUSTER_MESSAGES.regionRequired);
    await expectFieldError({ region: 'mars-1' }, 'region', CLUSTER_MESSAGES.regionUnknown);
    await expectFieldError({ enable_dr_flag: true, backup_region: null }, 'backup_region', CLUSTER_MESSAGES.backupRegionRequired);
    await expectFieldError({ enable_dr_flag: false, backup_region: 'us-west-2' }, 'backup_region', CLUSTER_MESSAGES.backupRegionWithoutDr);
    await expectFieldError({ enable_dr_flag: true, backup_region: 'eu-west-1' }, 'backup_region', CLUSTER_MESSAGES.backupRegionInvalid);
    await expectFieldError({ cloud_provider: 'AZURE' }, 'cloud_provider', CLUSTER_MESSAGES.cloudProviderUnsupported);
    await expectFieldError({ password: '' }, 'password', CLUSTER_MESSAGES.passwordRequired);
    for (const weak of ['Short#1a', 'alllowercase#123', 'NoDigits#Here!', 'NoSpecial12345', 'Has Space#1234', ' Lead#12345678']) {
      await expectFieldError({ password: weak }, 'password', CLUSTER_MESSAGES.passwordFormat);
    }
    await expectFieldError({ kumo_version: '' }, 'kumo_version', CLUSTER_MESSAGES.versionRequired);
    await expectFieldError({ subscription_id: 'nope' }, 'subscription_id', CLUSTER_MESSAGES.subscriptionRequired);

    // Names are unique within the subscription, whatever the case; CIDRs may not overlap in the same regions.
    await createCluster(jwt, subscriptionId, { cluster_name: 'Unique_One', cidr: '10.20.0.0/16' });
    const taken = await post(ctx, '/api/cluster/create', body(subscriptionId, { cluster_name: 'unique_one', cidr: '10.21.0.0/16' }), jwt);
    expect(taken.statusCode).toBe(409);
    expect(errorCode(taken)).toBe('CLUSTER_NAME_TAKEN');
    expect(taken.json().field_errors).toEqual({ cluster_name: CLUSTER_MESSAGES.nameTaken });
    const overlap = await post(
      ctx,
      '/api/cluster/create',
      body(subscriptionId, { cluster_name: 'Another_One', cidr: '10.20.128.0/17' }),
      jwt,
    );
    expect(overlap.statusCode).toBe(409);
    expect(errorCode(overlap)).toBe('CIDR_OVERLAP');
    // The same name in another subscription is fine.
    const other = await createSubscription(ctx, jwt, 'Second');
    // …but that subscription has no funds: the spec's balance message.
    const poor = await post(ctx, '/api/cluster/create', body(other, { cluster_name: 'Unique_One', cidr: '10.22.0.0/16' }), jwt);
    expect(poor.statusCode).toBe(422);
    expect(errorCode(poor)).toBe('INSUFFICIENT_BALANCE');
    expect(errorMessage(poor)).toBe(CLUSTER_MESSAGES.insufficientBalance);

    // Another account's subscription is unknown.
    const stranger = await customer();
    expect(
      (await post(ctx, '/api/cluster/create', body(subscriptionId, { cluster_name: 'Sneaky_One', cidr: '10.30.0.0/16' }), stranger.jwt))
        .statusCode,
    ).toBe(404);
  });

  it('never stores the password in plain text and forgets it once the cloud has it', async () => {
    const { jwt, subscriptionId } = await customer();
    const created = await post(ctx, '/api/cluster/create', body(subscriptionId, { cluster_name: 'Secretive' }), jwt);
    const id = String(created.json().deployment_id);
    const row = async () =>
      (await ctx.database.db.execute(sql`select sealed_password, stack_id from clusters where id = ${id}`)).rows[0] as {
        sealed_password: string | null;
        stack_id: string | null;
      };
    const before = await row();
    expect(before.sealed_password).toBeTruthy();
    expect(before.sealed_password).not.toContain(PASSWORD);
    expect(Buffer.from(before.sealed_password!, 'base64url').toString('latin1')).not.toContain(PASSWORD);
    expect(JSON.stringify(ctx.jobs.sent)).not.toContain(PASSWORD);
    await ctx.services.clusters.reconcile(id);
    const after = await row();
    expect(after.sealed_password).toBeNull();
    expect(after.stack_id).toMatch(/^arn:aws:cloudformation:us-east-1:/);
    const stacks = await ctx.database.db.execute(sql`select * from sim_cloud_stacks where deployment_id = ${id}`);
    expect(JSON.stringify(stacks.rows)).not.toContain(PASSWORD);
  });

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
    expect(cluster.kumo_manager_url).toMatch(/^http:\/\/portal\.test\/sim\/kumo\/kumo-.+\/manager\/\?sso=[\w-]+\.[\w-]+$/);
    expect(cluster.kumo_url).toMatch(/\/portal\/\?sso=[\w-]+\.[\w-]+$/);

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

    // The simulated Manager and Web Portal answer while online, to the link with its single-sign-on ticket.
    const managerUrl = new URL(cluster.kumo_manager_url);
    const managerPath = managerUrl.pathname + managerUrl.search;
    const manager = await ctx.app.inject({ method: 'GET', url: managerPath });
    expect(manager.statusCode).toBe(200);
    expect(manager.body).toContain('kmuser');
    const portalUrl = new URL(cluster.kumo_url);
    expect((await ctx.app.inject({ method: 'GET', url: portalUrl.pathname + portalUrl.search })).body).toContain('Admin');

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
    expect((await ctx.app.inject({ method: 'GET', url: managerPath })).statusCode).toBe(200);

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
      'CLUSTER_DEPLOYED',
      'CLUSTER_RESOURCES_CREATED',
    ]);
    expect((await get(ctx, `/api/cluster/get-audit-logs/${id}?startDate=2026-02-01T00:00:00`, jwt)).json().page_content).toEqual({
      content: [],
      totalPages: 0,
    });
    expect((await get(ctx, `/api/cluster/get-audit-logs/${id}?startDate=2026-02-15T00:00:00`, jwt)).statusCode).toBe(400);
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

  it('deletes only with the approver OTP: wrong, resent, reused, expired and another account', async () => {
    const owner = await customer('Deletions');
    const id = await deployOnline(owner.jwt, owner.subscriptionId, { cluster_name: 'Short_Lived' });
    const ask = (jwt: string, deploymentId = id) =>
      post(ctx, '/api/user/operation', { action_name: 'customer_delete_cluster', action_payload: { deployment_id: deploymentId } }, jwt);

    // A subscription with a live cluster cannot be deleted.
    const subscriptionDelete = await send(ctx, 'DELETE', `/api/subscription/delete/${owner.subscriptionId}`, undefined, owner.jwt);
    expect(subscriptionDelete.statusCode).toBe(422);
    const listed = (await get(ctx, `/api/subscription/details?subscription_id=${owner.subscriptionId}`, owner.jwt)).json();
    expect(listed.active_cluster_count).toBe(1);
    expect(listed.clusters).toEqual([{ deployment_id: id, cluster_name: 'Short_Lived', status: 'ONLINE' }]);

    const asked = await ask(owner.jwt);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(CLUSTER_MESSAGES.approverOtpSent);
    const operationId = String(asked.json().operation_id);
    const firstOtp = await latestOtp(ctx, owner.email);
    const mails = await ctx.services.mail.listRecent(5);
    expect(mails[0]!.subject).toBe('Approve the deletion of cluster Short_Lived');
    expect(mails[0]!.subject).not.toContain(firstOtp);

    const statusOf = async () => (await get(ctx, `/api/cluster/operation/status/${operationId}`, owner.jwt)).json();
    expect(await statusOf()).toMatchObject({
      status: 'PENDING_APPROVAL',
      deployment_id: id,
      cluster_status: 'ONLINE',
      action_name: 'customer_delete_cluster',
    });

    // Another account cannot see, resend or approve it.
    const stranger = await customer();
    expect((await get(ctx, `/api/cluster/operation/status/${operationId}`, stranger.jwt)).statusCode).toBe(404);
    expect((await post(ctx, '/api/user/operation/resend-otp', { operation_id: operationId }, stranger.jwt)).statusCode).toBe(404);
    expect(
      (await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: firstOtp }, stranger.jwt)).statusCode,
    ).toBe(404);

    const wrongOtp = firstOtp === '000000' ? '111111' : '000000';
    const wrong = await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: wrongOtp }, owner.jwt);
    expect(wrong.statusCode).toBe(422);
    expect(errorCode(wrong)).toBe('OTP_INVALID');

    const resent = await post(ctx, '/api/user/operation/resend-otp', { operation_id: operationId }, owner.jwt);
    expect(resent.statusCode).toBe(200);
    const secondOtp = await latestOtp(ctx, owner.email);
    if (secondOtp !== firstOtp) {
      const stale = await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: firstOtp }, owner.jwt);
      expect(errorCode(stale)).toBe('OTP_INVALID');
    }

    const approved = await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: secondOtp }, owner.jwt);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toEqual({
      operation_id: operationId,
      status: 'APPROVED',
      message: clusterDeletionStartedMessage('Short_Lived', 'Deletions'),
    });
    const reused = await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: secondOtp }, owner.jwt);
    expect(reused.statusCode).toBe(409);
    expect(errorCode(reused)).toBe('OPERATION_ALREADY_USED');
    expect((await post(ctx, '/api/user/operation/resend-otp', { operation_id: operationId }, owner.jwt)).statusCode).toBe(409);

    expect((await status(owner.jwt, id)).status).toBe('DELETING');
    for (const action of ['start', 'stop']) expect((await get(ctx, `/api/cluster/${action}/${id}`, owner.jwt)).statusCode).toBe(409);
    await elapse(simMinutes(4), id);
    expect((await status(owner.jwt, id)).status).toBe('DELETING');
    await elapse(simMinutes(4), id); // done within 5-10 minutes
    expect((await status(owner.jwt, id)).status).toBe('DELETED');
    expect(await statusOf()).toMatchObject({ status: 'APPROVED', cluster_status: 'DELETED' });
    expect((await get(ctx, '/api/cluster/view', owner.jwt)).json()[0].clusters).toEqual([]);
    expect((await get(ctx, `/api/cluster/details/${id}`, owner.jwt)).statusCode).toBe(404);
    const after = (await get(ctx, `/api/subscription/details?subscription_id=${owner.subscriptionId}`, owner.jwt)).json();
    expect(after.active_cluster_count).toBe(0);
    expect(after.clusters).toEqual([]);
    const events = (await get(ctx, `/api/cluster/get-audit-logs/${id}`, owner.jwt))
      .json()
      .page_content.content.map((entry: { event: string }) => entry.event);
    expect(events.slice(0, 3)).toEqual(['CLUSTER_DELETED', 'CLUSTER_DELETE_APPROVED', 'CLUSTER_DELETE_REQUESTED']);
    // The name is free again once the cluster is gone.
    await createCluster(owner.jwt, owner.subscriptionId, { cluster_name: 'Short_Lived', cidr: '10.9.0.0/16' });

    // An operation expires with its OTP.
    const second = await deployOnline(owner.jwt, owner.subscriptionId, { cluster_name: 'Expiring', cidr: '10.8.0.0/16' });
    const late = String((await ask(owner.jwt, second)).json().operation_id);
    const lateOtp = await latestOtp(ctx, owner.email);
    ctx.clock.advance(11 * MINUTE);
    const expired = await post(ctx, '/api/user/operation/authenticate', { operation_id: late, otp: lateOtp }, owner.jwt);
    expect(expired.statusCode).toBe(422);
    expect(errorCode(expired)).toBe('OPERATION_EXPIRED');
    expect((await get(ctx, `/api/cluster/operation/status/${late}`, owner.jwt)).json().status).toBe('EXPIRED');
    expect((await status(owner.jwt, second)).status).toBe('ONLINE');

    // Three wrong OTPs lock approvals for the day, as at sign-in (an hour on, the earlier wrong ones no longer count).
    ctx.clock.advance(61 * MINUTE);
    owner.jwt = (await logIn(ctx, owner.email)).jwt; // access tokens live 15 minutes
    const locked = String((await ask(owner.jwt, second)).json().operation_id);
    const goodOtp = await latestOtp(ctx, owner.email);
    const bad = goodOtp === '000000' ? '111111' : '000000';
    expect(errorCode(await post(ctx, '/api/user/operation/authenticate', { operation_id: locked, otp: bad }, owner.jwt))).toBe(
      'OTP_INVALID',
    );
    expect(errorCode(await post(ctx, '/api/user/operation/authenticate', { operation_id: locked, otp: bad }, owner.jwt))).toBe(
      'OTP_INVALID',
    );
    expect(errorCode(await post(ctx, '/api/user/operation/authenticate', { operation_id: locked, otp: bad }, owner.jwt))).toBe(
      'OTP_LOCKED',
    );
    expect(errorCode(await post(ctx, '/api/user/operation/authenticate', { operation_id: locked, otp: goodOtp }, owner.jwt))).toBe(
      'OTP_LOCKED',
    );
    // …without locking the owner's sign-in.
    expect((await post(ctx, '/api/user/login', { email_id: owner.email, auth_provider: 'EMAIL_OTP_AUTH' })).statusCode).toBe(200);
    ctx.clock.advance(24 * 60 * MINUTE);
  });

  it("treats another account's cluster as unknown on every call", async () => {
    const owner = await customer();
    const id = await deployOnline(owner.jwt, owner.subscriptionId, { cluster_name: 'Private' });
    const intruder = await customer();
    const calls = [
      get(ctx, `/api/cluster/deployment-details/status/${id}`, intruder.jwt),
      get(ctx, `/api/cluster/details/${id}?detail=CURRENT`, intruder.jwt),
      get(ctx, `/api/cluster/details/${id}?detail=DEPLOYMENT`, intruder.jwt),
      get(ctx, `/api/cluster/start/${id}`, intruder.jwt),
      get(ctx, `/api/cluster/stop/${id}`, intruder.jwt),
      send(ctx, 'POST', `/api/cluster/stop/${id}`, undefined, intruder.jwt),
      get(ctx, `/api/cluster/get-audit-logs/${id}`, intruder.jwt),
      get(ctx, `/api/cluster/schedule/${id}`, intruder.jwt),
      send(ctx, 'PUT', `/api/cluster/schedule/${id}`, { enabled: true, rules: [] }, intruder.jwt),
      post(ctx, '/api/user/operation', { action_name: 'customer_delete_cluster', action_payload: { deployment_id: id } }, intruder.jwt),
      get(ctx, `/api/cluster/view?subscriptionId=${owner.subscriptionId}`, intruder.jwt),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode, response.body).toBe(404);
    }
    const theirs = (await get(ctx, '/api/cluster/view', intruder.jwt)).json();
    expect(theirs.flatMap((group: { clusters: unknown[] }) => group.clusters)).toEqual([]);
    expect((await status(owner.jwt, id)).status).toBe('ONLINE');
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_SIZES, CLUSTER_SIZE_MESSAGES, MESSAGES, budgetExceededMessage, queryEngineCores } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, get, post, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';
import { accountWithPeople } from '../../../test/support/manager-access.js';
import { staffViewOf } from '../../../test/support/staff.js';
import { RESIZE_STEP_MINUTES } from '../../adapters/cloud/index.js';
import { DEFAULT_RATES, clusterHourCents } from '../metering/index.js';

/**
 * Sizes of the query engines and resizing (docs/clusters.md, Sizes and Resizing): the sizes, a create with a shape, an
 * online resize that moves engine by engine without dropping below the smaller count, an offline one kept for the next
 * start, and every refusal: states, the same shape, roles, tokens, the staff view, the balance and the budget.
 */
const kinds = await databaseKinds();

describe.each(kinds)('cluster sizes and resizing on %s', { timeout: 120_000 }, (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
  });
  afterAll(() => ctx.close());
  const steps = clusterSteps(() => ctx);
  const { customer, createCluster, deployOnline, status, elapse } = steps;
  const resize = (id: string, body: unknown, jwt: string) => post(ctx, `/api/cluster/resize/${id}`, body, jwt);
  const details = async (id: string, jwt: string) => (await get(ctx, `/api/cluster/details/${id}`, jwt)).json();
  const auditOf = async (id: string, jwt: string) =>
    (await get(ctx, `/api/cluster/get-audit-logs/${id}`, jwt)).json().page_content.content as { event: string; description: string }[];
  const withToken = (method: 'GET' | 'POST', url: string, token: string, body?: unknown) =>
    ctx.app.inject({ method, url, payload: body as object | undefined, headers: { authorization: `Bearer ${token}` } });

  it('lists the five sizes in order and creates a cluster of the shape asked for, M × 5 when none is', async () => {
    const { jwt, subscriptionId } = await customer();
    const sizes = await get(ctx, '/api/cluster/sizes', jwt);
    expect(sizes.statusCode, sizes.body).toBe(200);
    expect(sizes.json()).toEqual(CLUSTER_SIZES);

    const small = await createCluster(jwt, subscriptionId, { cluster_name: 'Small_One', size: 'S', query_engines: 2 });
    const shown = await details(small, jwt);
    expect(shown).toMatchObject({ size: 'S', query_engines: 2, resizing_to: null });
    expect(shown.cluster_configurations).toContainEqual({
      service_name: 'Query Engines',
      node_count: 2,
      instance_type: 'r6i.2xlarge',
      core: 8,
    });
    const plain = await createCluster(jwt, subscriptionId, { cluster_name: 'Plain_One', cidr: '10.1.0.0/16' });
    expect(await details(plain, jwt)).toMatchObject({ size: 'M', query_engines: 5 });

    for (const [field, value, message] of [
      ['size', 'XXL', CLUSTER_SIZE_MESSAGES.sizeUnknown],
      ['query_engines', 6, CLUSTER_SIZE_MESSAGES.queryEnginesRange],
      ['query_engines', 0, CLUSTER_SIZE_MESSAGES.queryEnginesRange],
      ['query_engines', 2.5, CLUSTER_SIZE_MESSAGES.queryEnginesRange],
    ] as const) {
      const refused = await post(
        ctx,
        '/api/cluster/create',
        steps.body(subscriptionId, { cluster_name: 'Bad_Shape', [field]: value }),
        jwt,
      );
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().field_errors).toEqual({ [field]: message });
    }
  });

  it('prices a shape before it is created and a resize before it is made, at the customer rates, with the runway', async () => {
    const { jwt, subscriptionId } = await customer();
    const hourly = clusterHourCents(DEFAULT_RATES, 'running', false, queryEngineCores('S', 2));
    const preview = await get(ctx, `/api/cluster/price-preview?subscription_id=${subscriptionId}&size=S&query_engines=2`, jwt);
    expect(preview.statusCode, preview.body).toBe(200);
    // The $500 sign-up credits, and nothing else running yet.
    expect(preview.json()).toEqual({
      hourly_cost: hourly / 100,
      monthly_cost_estimate: (hourly * 730) / 100,
      runway_days: Math.round((50_000 / hourly / 24) * 10) / 10,
    });
    const bad = await get(ctx, `/api/cluster/price-preview?subscription_id=${subscriptionId}&size=S&query_engines=9`, jwt);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field_errors).toEqual({ query_engines: CLUSTER_SIZE_MESSAGES.queryEnginesRange });

    const id = await deployOnline(jwt, subscriptionId, { size: 'S', query_engines: 2 });
    const larger = clusterHourCents(DEFAULT_RATES, 'running', false, queryEngineCores('L', 4));
    const resizePreview = await get(ctx, `/api/cluster/resize-preview/${id}?size=L&query_engines=4`, jwt);
    expect(resizePreview.statusCode, resizePreview.body).toBe(200);
    const balance = (await details(id, jwt)).subscription_balance * 100;
    expect(resizePreview.json()).toEqual({
      current: { size: 'S', query_engines: 2, hourly_cost: hourly / 100 },
      proposed: { size: 'L', query_engines: 4, hourly_cost: larger / 100 },
      runway_days_current: Math.round((balance / hourly / 24) * 10) / 10,
      runway_days_proposed: Math.round((balance / larger / 24) * 10) / 10,
    });
    expect((await get(ctx, `/api/cluster/resize-preview/${id}?size=XXL&query_engines=4`, jwt)).json().field_errors).toEqual({
      size: CLUSTER_SIZE_MESSAGES.sizeUnknown,
    });
  });

  it('resizes an online cluster engine by engine, online throughout and never below the smaller count, then says so', async () => {
    const { email, jwt, subscriptionId } = await customer();
    const id = await deployOnline(jwt, subscriptionId, { size: 'S', query_engines: 2 });
    const answer = await resize(id, { size: 'L', query_engines: 4 }, jwt);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      deployment_id: id,
      status: 'ONLINE',
      size: 'L',
      query_engines: 4,
      resizing: true,
      message: CLUSTER_SIZE_MESSAGES.resizeStarted,
    });
    const before = clusterHourCents(DEFAULT_RATES, 'running', false, 16) / 100;
    const after = clusterHourCents(DEFAULT_RATES, 'running', false, 128) / 100;
    expect((await auditOf(id, jwt))[0]).toMatchObject({
      event: 'CLUSTER_RESIZE_REQUESTED',
      description: `Sales_Cluster-1 resized from S × 2 to L × 4 by ${email} (hourly cost $${before.toFixed(2)} → $${after.toFixed(2)}); the query engines are being moved.`,
    });
    expect((await resize(id, { size: 'XL', query_engines: 1 }, jwt)).json().errorDetails.error_message).toBe(
      CLUSTER_SIZE_MESSAGES.resizeInProgress,
    );

    // Two replacements and two additions, a step at a time: the cluster stays online with at least two engines up.
    const capacities: number[] = [];
    for (let step = 0; step < 7; step += 1) {
      await elapse(simMinutes(RESIZE_STEP_MINUTES), id);
      const shown = await details(id, jwt);
      expect(shown.status).toBe('ONLINE');
      capacities.push(shown.cluster_capacity);
    }
    expect(Math.min(...capacities)).toBeGreaterThanOrEqual(2);
    expect(capacities.at(-1)).toBe(4);
    const done = await details(id, jwt);
    expect(done).toMatchObject({ size: 'L', query_engines: 4, resizing_to: null, cluster_capacity: 4 });
    const engines = done.nodes.filter((node: { host: string }) => node.host.startsWith('kumo-qe-'));
    expect(engines.map((node: { instance_type: string; status: string }) => [node.instance_type, node.status])).toEqual(
      Array.from({ length: 4 }, () => ['r6i.8xlarge', 'Online']),
    );
    expect((await auditOf(id, jwt))[0]).toMatchObject({
      event: 'CLUSTER_RESIZED',
      description: 'Sales_Cluster-1 runs L × 4: its query engines are in place.',
    });
    expect(await ctx.services.clusters.reconcile(id)).toBe(false);
  });

  it('keeps an offline cluster’s new shape for its next start, and refuses other states and the same shape', async () => {
    const { jwt, subscriptionId } = await customer();
    const id = await deployOnline(jwt, subscriptionId);
    const same = await resize(id, { size: 'M', query_engines: 5 }, jwt);
    expect(same.statusCode).toBe(400);
    expect(same.json().field_errors).toEqual({ size: CLUSTER_SIZE_MESSAGES.nothingToChange });
    const badBody = await resize(id, { size: 'M', query_engines: '3' }, jwt);
    expect(badBody.json().field_errors).toEqual({ query_engines: CLUSTER_SIZE_MESSAGES.queryEnginesRange });

    expect((await post(ctx, `/api/cluster/stop/${id}`, undefined, jwt)).statusCode).toBe(200);
    const stopping = await resize(id, { size: 'XS', query_engines: 1 }, jwt);
    expect(stopping.statusCode).toBe(409);
    expect(errorMessage(stopping)).toBe(CLUSTER_SIZE_MESSAGES.resizeNotAllowed);
    await elapse(simMinutes(6), id);
    expect((await status(jwt, id)).status).toBe('OFFLINE');

    const saved = await resize(id, { size: 'XS', query_engines: 3 }, jwt);
    expect(saved.json()).toMatchObject({ status: 'OFFLINE', resizing: false, message: CLUSTER_SIZE_MESSAGES.resizeSaved });
    expect(await details(id, jwt)).toMatchObject({ size: 'XS', query_engines: 3, resizing_to: null });
    expect((await auditOf(id, jwt))[0]!.description).toMatch(/resized from M × 5 to XS × 3 .*; the next start brings it up\.$/);

    expect((await post(ctx, `/api/cluster/start/${id}`, undefined, jwt)).statusCode).toBe(200);
    await elapse(simMinutes(10), id);
    const started = await details(id, jwt);
    expect(started).toMatchObject({ status: 'ONLINE', cluster_capacity: 3 });
    expect(
      started.nodes
        .filter((node: { host: string }) => node.host.startsWith('kumo-qe-'))
        .map((n: { instance_type: string }) => n.instance_type),
    ).toEqual(['r6i.xlarge', 'r6i.xlarge', 'r6i.xlarge']);
  });

  it('lets owners, admins and WRITE tokens resize; refuses members, READ tokens, a staff view and another account', async () => {
    const a = await accountWithPeople(ctx, steps, { online: true });
    expect((await resize(a.clusterId, { size: 'M', query_engines: 4 }, a.member.jwt)).statusCode).toBe(403);
    const viewing = await staffViewOf(ctx, a.ownerId);
    expect((await resize(a.clusterId, { size: 'M', query_engines: 4 }, viewing.jwt)).statusCode).toBe(403);
    expect((await get(ctx, `/api/cluster/resize-preview/${a.clusterId}?size=M&query_engines=4`, viewing.jwt)).statusCode).toBe(200);
    expect((await resize(a.clusterId, { size: 'M', query_engines: 4 }, (await customer()).jwt)).statusCode).toBe(404);

    const token = async (scope: string) =>
      (await post(ctx, '/api/user/api-tokens', { name: `resize ${scope}`, scope, expires_in_days: 7, allowed_ips: [] }, a.owner.jwt)).json()
        .token as string;
    const read = await withToken('POST', `/api/cluster/resize/${a.clusterId}`, await token('READ'), { size: 'M', query_engines: 4 });
    expect(read.statusCode).toBe(403);
    const write = await withToken('POST', `/api/cluster/resize/${a.clusterId}`, await token('WRITE'), { size: 'M', query_engines: 4 });
    expect(write.statusCode, write.body).toBe(200);
    await elapse(simMinutes(RESIZE_STEP_MINUTES * 2), a.clusterId);
    const byAdmin = await resize(a.clusterId, { size: 'M', query_engines: 3 }, a.admin.jwt);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
  });

  it('refuses to grow below the minimum balance or past a budget’s hard cap, and always lets a cluster shrink', async () => {
    const { jwt, subscriptionId } = await customer();
    const id = await deployOnline(jwt, subscriptionId, { size: 'S', query_engines: 3 });
    await post(ctx, `/api/cluster/stop/${id}`, undefined, jwt);
    await elapse(simMinutes(6), id);

    const capped = await send(
      ctx,
      'PUT',
      `/api/subscription/${subscriptionId}/budget`,
      { monthly_amount: 1, stop_clusters_at_limit: true },
      jwt,
    );
    expect(capped.statusCode, capped.body).toBe(200);
    const overBudget = await resize(id, { size: 'L', query_engines: 3 }, jwt);
    expect(overBudget.statusCode).toBe(422);
    expect(errorCode(overBudget)).toBe('BUDGET_EXCEEDED');
    expect(errorMessage(overBudget)).toBe(budgetExceededMessage('Analytics'));
    expect((await resize(id, { size: 'S', query_engines: 2 }, jwt)).statusCode).toBe(200);

    const { jwt: poorJwt, subscriptionId: poorSubscription } = await customer();
    const poor = await deployOnline(poorJwt, poorSubscription, { size: 'S', query_engines: 3 });
    const balance = (await details(poor, poorJwt)).subscription_balance * 100;
    await ctx.services.ledger.debitUsage({
      subscriptionId: poorSubscription,
      amountCents: balance - 5_000,
      idempotencyKey: `drain-${poor}`,
    });
    const refused = await resize(poor, { size: 'S', query_engines: 4 }, poorJwt);
    expect(refused.statusCode).toBe(422);
    expect(errorCode(refused)).toBe('INSUFFICIENT_BALANCE');
    expect(errorMessage(refused)).toBe(MESSAGES.minimumBalance);
    expect((await resize(poor, { size: 'XS', query_engines: 3 }, poorJwt)).statusCode).toBe(200);
  });
});

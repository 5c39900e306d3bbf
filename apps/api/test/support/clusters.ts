import { expect } from 'vitest';
import { createSubscription } from './checkout.js';
import { get, post, signUp, type TestContext } from './harness.js';

/** A password every create rule accepts. */
export const CLUSTER_PASSWORD = 'Sup3r#Secret-pw';

/** At SIM_TIME_SCALE 60 one simulated minute is one real second. */
export const simMinutes = (minutes: number) => minutes * 1000;

/** The options of the portal the clusters tests run against: a fast simulated cloud that fails stacks named doomed*. */
export const CLUSTER_TEST_APP = { cloud: { simTimeScale: 60, simFailPattern: '^doomed' } } as const;

let counter = 0;

/** The body of POST /api/cluster/create that every create rule accepts, with the given fields changed. */
export const clusterBody = (subscriptionId: string, overrides: Record<string, unknown> = {}) => ({
  subscription_id: subscriptionId,
  cluster_name: 'Sales_Cluster-1',
  description: 'Quarterly sales analytics',
  cloud_provider: 'AWS',
  enable_dr_flag: false,
  cidr: '10.0.0.0/16',
  region: 'us-east-1',
  backup_region: null,
  password: CLUSTER_PASSWORD,
  kumo_version: '2026.10.1',
  ...overrides,
});

/** Customers, create bodies and the cloud's clock for the clusters tests; `context` reads the suite's app once it is started. */
export function clusterSteps(context: () => TestContext) {
  const freshEmail = () => `clusters${++counter}.${Date.now()}@example.com`;

  /** A signed-up owner with a funded first subscription (the $500 sign-up credits). */
  async function customer(subscriptionName = 'Analytics') {
    const ctx = context();
    const email = freshEmail();
    const { jwt } = await signUp(ctx, email, 'Cleo Cluster');
    const subscriptionId = await createSubscription(ctx, jwt, subscriptionName);
    return { email, jwt, subscriptionId };
  }

  const body = clusterBody;

  async function createCluster(jwt: string, subscriptionId: string, overrides: Record<string, unknown> = {}) {
    const ctx = context();
    const response = await post(ctx, '/api/cluster/create', body(subscriptionId, overrides), jwt);
    expect(response.statusCode, response.body).toBe(200);
    const id = String(response.json().deployment_id);
    // The follow job runs at once in the portal: the stack request reaches the cloud now.
    await ctx.services.clusters.reconcile(id);
    return id;
  }

  const status = async (jwt: string, id: string) => (await get(context(), `/api/cluster/deployment-details/status/${id}`, jwt)).json();

  /** Moves time on and lets the cloud's report reach the row, as the follow job would. */
  async function elapse(ms: number, id: string) {
    const ctx = context();
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

  return { freshEmail, customer, body, createCluster, status, elapse, deployOnline };
}

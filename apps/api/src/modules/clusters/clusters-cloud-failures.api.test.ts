import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudRequestError, type CloudProvisioner, type ClusterDescription } from '../../adapters/cloud/index.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { runningCluster as running } from '../../../test/support/gated-cloud.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { get, latestOtp, post, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';

const kinds = await databaseKinds();
let counter = 0;

/** A cloud whose answers and refusals the test sets. */
class ScriptedCloud implements CloudProvisioner {
  readonly kind = 'aws' as const;
  description: ClusterDescription = running;
  refuseCreate = false;
  refuseStart = false;
  describeFails = false;
  async createCluster() {
    if (this.refuseCreate) throw new CloudRequestError('Template format error: quota exceeded for VPCs', false);
    return { stackId: 'arn:aws:cloudformation:us-east-1:123456789012:stack/x/1' };
  }
  async describe() {
    if (this.describeFails) throw new CloudRequestError('Rate exceeded', true);
    return this.description;
  }
  async stopCluster() {}
  async startCluster() {
    if (this.refuseStart) throw new CloudRequestError('InsufficientInstanceCapacity', false);
  }
  async resizeCluster() {}
  async deleteCluster() {}
}

describe.each(kinds)('clusters when the cloud refuses or fails, on %s', (kind) => {
  let ctx: TestContext;
  const cloud = new ScriptedCloud();
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { provisioner: cloud } });
  });
  afterAll(() => ctx.close());

  async function onlineCluster() {
    const email = `cloudfail${++counter}.${Date.now()}@example.com`;
    const { jwt } = await signUp(ctx, email, 'Fay Failure');
    const subscriptionId = await createSubscription(ctx, jwt, 'Failures');
    cloud.description = running;
    const created = await post(
      ctx,
      '/api/cluster/create',
      {
        subscription_id: subscriptionId,
        cluster_name: 'Fragile',
        description: '',
        cloud_provider: 'AWS',
        enable_dr_flag: false,
        cidr: '10.0.0.0/16',
        region: 'us-east-1',
        backup_region: null,
        password: 'Fr4gile#Password',
        kumo_version: '2026.10.1',
      },
      jwt,
    );
    const id = String(created.json().deployment_id);
    await ctx.services.clusters.reconcile(id);
    return { email, jwt, id, subscriptionId };
  }
  const statusOf = async (jwt: string, id: string) => (await get(ctx, `/api/cluster/deployment-details/status/${id}`, jwt)).json().status;

  it('marks a cluster FAILED when the cloud refuses the stack', async () => {
    cloud.refuseCreate = true;
    try {
      const { jwt, id } = await onlineCluster();
      expect(await statusOf(jwt, id)).toBe('FAILED');
      const [entry] = (await get(ctx, `/api/cluster/get-audit-logs/${id}`, jwt)).json().page_content.content;
      expect(entry.description).toContain('quota exceeded');
    } finally {
      cloud.refuseCreate = false;
    }
  });

  it('puts a cluster back OFFLINE when the cloud refuses to start it', async () => {
    const { jwt, id } = await onlineCluster();
    expect(await statusOf(jwt, id)).toBe('ONLINE');
    await get(ctx, `/api/cluster/stop/${id}`, jwt);
    cloud.description = { ...running, powerState: 'STOPPED', managerUrl: undefined, portalUrl: undefined };
    // The follow job's first look carries the command to the cloud, its next one reads the outcome.
    await ctx.services.clusters.reconcile(id);
    await ctx.services.clusters.reconcile(id);
    expect(await statusOf(jwt, id)).toBe('OFFLINE');
    cloud.refuseStart = true;
    await get(ctx, `/api/cluster/start/${id}`, jwt);
    await ctx.services.clusters.reconcile(id);
    cloud.refuseStart = false;
    expect(await statusOf(jwt, id)).toBe('OFFLINE');
    const [entry] = (await get(ctx, `/api/cluster/get-audit-logs/${id}`, jwt)).json().page_content.content;
    expect(entry.description).toContain('InsufficientInstanceCapacity');
  });

  it('keeps answering status reads while the cloud cannot be asked, and the job retries', async () => {
    const { jwt, id } = await onlineCluster();
    await get(ctx, `/api/cluster/stop/${id}`, jwt);
    cloud.describeFails = true;
    try {
      expect(await statusOf(jwt, id)).toBe('STOPPING');
      await expect(ctx.services.clusters.followJob(id)).rejects.toThrow('Rate exceeded');
    } finally {
      cloud.describeFails = false;
    }
  });

  it('shows a deletion that left resources behind as DELETED_PARTIALLY and frees the subscription', async () => {
    const { email, jwt, id, subscriptionId } = await onlineCluster();
    const asked = await post(
      ctx,
      '/api/user/operation',
      { action_name: 'customer_delete_cluster', action_payload: { deployment_id: id } },
      jwt,
    );
    const approved = await post(
      ctx,
      '/api/user/operation/authenticate',
      { operation_id: asked.json().operation_id, otp: await latestOtp(ctx, email) },
      jwt,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    cloud.description = {
      stackStatus: 'DELETE_FAILED',
      deploymentStatus: null,
      powerState: 'STOPPED',
      nodes: [],
      failureReason: 'bucket not empty',
    };
    await ctx.services.clusters.reconcile(id);
    await ctx.services.clusters.reconcile(id);
    expect(await statusOf(jwt, id)).toBe('DELETED_PARTIALLY');
    expect((await get(ctx, '/api/cluster/view', jwt)).json()[0].clusters).toEqual([]);
    expect((await get(ctx, `/api/subscription/details?subscription_id=${subscriptionId}`, jwt)).json().active_cluster_count).toBe(0);
  });
});

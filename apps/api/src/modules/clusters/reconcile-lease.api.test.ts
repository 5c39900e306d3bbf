import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { GatedCloud, runningCluster, stoppedCluster } from '../../../test/support/gated-cloud.js';
import { rows } from '../../../test/support/metering.js';
import { get, post, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { RECONCILE_LEASE_MS } from './reconcile.js';

const kinds = await databaseKinds();
let counter = 0;

/**
 * Two portals on one database, each with its own cloud driver and clock: a cluster is reconciled by one of them at a
 * time, no row lock is held while the cloud answers, a lease left behind runs out, and a late answer never
 * overwrites what happened since.
 */
describe.each(kinds)('reconciling a cluster under a lease, two portals on %s', (kind) => {
  let first: TestContext;
  let second: TestContext;
  const firstCloud = new GatedCloud();
  const secondCloud = new GatedCloud();
  beforeAll(async () => {
    first = await startTestApp(kind, { cloud: { provisioner: firstCloud } });
    second = await startTestApp(kind, { sameDatabaseAs: first, cloud: { provisioner: secondCloud } });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  /** An online cluster the customer has just asked to stop: STOPPING, its command not yet sent. */
  async function stoppingCluster() {
    const { jwt } = await signUp(first, `lease${++counter}.${Date.now()}@example.com`, 'Lea Lease');
    const subscriptionId = await createSubscription(first, jwt, 'Leased');
    const created = await post(
      first,
      '/api/cluster/create',
      {
        subscription_id: subscriptionId,
        cluster_name: 'Contended',
        cloud_provider: 'AWS',
        cidr: '10.0.0.0/16',
        region: 'us-east-1',
        password: 'Sup3r#Secret-pw',
        kumo_version: '2026.10.1',
      },
      jwt,
    );
    const id = String(created.json().deployment_id);
    firstCloud.description = runningCluster;
    expect(await first.services.clusters.reconcile(id)).toBe(false);
    expect((await get(first, `/api/cluster/stop/${id}`, jwt)).statusCode).toBe(200);
    firstCloud.calls.length = 0;
    secondCloud.calls.length = 0;
    return { jwt, id };
  }

  const row = async (id: string) =>
    (
      await rows<{ status: string; pending: boolean; holder: string | null }>(
        first,
        sql`select status, cloud_command_pending as pending, reconcile_lease_holder as holder from clusters where id = ${id}`,
      )
    )[0]!;
  const events = async (id: string, event: string) =>
    (
      await rows<{ n: number }>(first, sql`select count(*)::int as n from cluster_audit_logs where cluster_id = ${id} and event = ${event}`)
    )[0]!.n;

  it('lets one portal act on a cluster at a time, and holds no row lock while the cloud answers', async () => {
    const { id } = await stoppingCluster();
    firstCloud.description = stoppedCluster;
    secondCloud.description = stoppedCluster;
    const held = firstCloud.holdNextDescribe();
    const firstLook = first.services.clusters.reconcile(id);
    await held.arrived;

    // The other portal's follow job and sweep find the cluster taken: they ask the cloud nothing, and keep following.
    expect(await second.services.clusters.reconcile(id)).toBe(true);
    await second.services.clusters.sweep();
    expect(secondCloud.calls).toEqual([]);
    // The row is free for anyone's short transaction meanwhile.
    await second.database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from clusters where id = ${id} for update nowait`);
    });

    held.release();
    // The command was pending when it was claimed, so this first report moves nothing yet.
    expect(await firstLook).toBe(true);
    expect(firstCloud.calls).toEqual(['stop', 'describe']);
    expect(await row(id)).toEqual({ status: 'STOPPING', pending: false, holder: null });
    expect(await second.services.clusters.reconcile(id)).toBe(false);
    expect(await row(id)).toEqual({ status: 'OFFLINE', pending: false, holder: null });
    expect(await events(id, 'CLUSTER_STOPPED')).toBe(1);
  });

  it('takes over a lease that ran out, and drops the late answer of the one that held it', async () => {
    const { jwt, id } = await stoppingCluster();
    firstCloud.description = runningCluster; // the stop has not reached the instances when the first portal looks
    const held = firstCloud.holdNextDescribe();
    const stalled = first.services.clusters.reconcile(id);
    await held.arrived;
    expect(await second.services.clusters.reconcile(id)).toBe(true);
    expect(secondCloud.calls).toEqual([]);

    // The first portal is as good as dead: once its lease runs out the other one carries on.
    second.clock.advance(RECONCILE_LEASE_MS + 1000);
    secondCloud.description = stoppedCluster;
    expect(await second.services.clusters.reconcile(id)).toBe(true);
    expect(await second.services.clusters.reconcile(id)).toBe(false);
    expect(secondCloud.calls).toEqual(['stop', 'describe', 'describe']);
    expect(await row(id)).toMatchObject({ status: 'OFFLINE' });
    // The customer starts it again: acknowledged, STARTING with its command pending.
    expect((await get(second, `/api/cluster/start/${id}`, jwt)).json().status).toBe('STARTING');

    // Now the stalled look returns with its old report: it must not touch the row.
    held.release();
    expect(await stalled).toBe(true);
    expect(await row(id)).toEqual({ status: 'STARTING', pending: true, holder: null });
    expect(await events(id, 'CLUSTER_STOPPED')).toBe(1);
  });

  it('keeps what the cloud accepted when a later call fails, and frees the cluster for the next look', async () => {
    const { id } = await stoppingCluster();
    firstCloud.describeFails = true;
    try {
      await expect(first.services.clusters.reconcile(id)).rejects.toThrow('Rate exceeded');
    } finally {
      firstCloud.describeFails = false;
    }
    // The stop reached the cloud and is not sent again; no lease is left to wait for.
    expect(await row(id)).toEqual({ status: 'STOPPING', pending: false, holder: null });
    secondCloud.description = stoppedCluster;
    expect(await second.services.clusters.reconcile(id)).toBe(false);
    expect(secondCloud.calls).toEqual(['describe']);
    expect(await row(id)).toMatchObject({ status: 'OFFLINE' });
  });
});

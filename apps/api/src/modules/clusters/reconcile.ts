/**
 * Reconcile: the cloud's word into our rows. Carries a pending command (create, start, stop, delete) to the cloud,
 * reads its report and moves the cluster through the lifecycle (spec section 4). Only the jobs call it (the follow
 * job and the minute sweep); reads never do.
 *
 * Several portal processes share one database, so a cluster is reconciled under a lease: one short UPDATE claims it,
 * the cloud is asked outside any transaction (no row lock or connection is held while the cloud answers), and the
 * result is written in one short transaction only if the lease is still ours and the row still is as we claimed it.
 * A lease left by a process that died runs out and the next job takes the cluster over.
 */
import { randomUUID } from 'node:crypto';
import { isClusterBusy, type ClusterStatus } from '@kumo/contract';
import type { FastifyBaseLogger } from 'fastify';
import { CloudRequestError, type CloudProvisioner } from '../../adapters/cloud/index.js';
import { MINUTE, type Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { deploymentFailed, nothingLearnt, outcomeOfReport, powerChangeRefused, type ReconcileOutcome } from './cloud-report.js';
import type { ClusterRecords } from './cluster-records.js';
import type { ClusterRow, ClustersRepository } from './clusters.repository.js';
import type { Sealer } from '../../lib/crypto.js';
import type { ClusterNetworkAccess } from './network-access.js';
import { engineShapeOf } from './resize.js';

/** How long a claim lasts: far longer than a look at the cloud takes, short enough that a crash only pauses a cluster. */
export const RECONCILE_LEASE_MS = 2 * MINUTE;

export function createReconciler(deps: {
  db: Database;
  repository: ClustersRepository;
  cloud: CloudProvisioner;
  subscriptions: Pick<SubscriptionsService, 'adjustActiveClusterCount'>;
  records: Pick<ClusterRecords, 'audit'>;
  network: Pick<ClusterNetworkAccess, 'ingressAtCreation'>;
  clock: Clock;
  passwordSealer: Sealer;
  logger: FastifyBaseLogger;
}) {
  const { db, repository, cloud, subscriptions, network, clock, passwordSealer, logger } = deps;
  const { audit } = deps.records;

  /**
   * Sends what the claimed row asks of the cloud, noting in `sent` what the cloud accepted. Returns an outcome when
   * the cloud refused for good (or there is nothing left to send); throws when it may succeed later.
   */
  async function carryCommand(row: ClusterRow, sent: ReconcileOutcome, now: Date): Promise<ReconcileOutcome | undefined> {
    if (row.status === 'DEPLOYING' && !row.stackId) {
      if (!row.sealedPassword) return deploymentFailed(row, now, 'The deployment request was lost before it reached the cloud.');
      try {
        const { stackId } = await cloud.createCluster({
          deploymentId: row.id,
          stackName: row.stackName,
          settings: {
            clusterName: row.name,
            region: row.region,
            backupRegion: row.backupRegion,
            cidr: row.cidr,
            kumoVersion: row.kumoVersion,
            queryEngines: engineShapeOf(row.size, row.queryEngines),
          },
          password: passwordSealer.open(row.sealedPassword),
          portalSqlCredential: row.sealedSqlCredential ? passwordSealer.open(row.sealedSqlCredential) : undefined,
          ingress: await network.ingressAtCreation(row.id),
        });
        // The cloud has the password now: the portal forgets it.
        Object.assign(sent.patch, { stackId, sealedPassword: null });
      } catch (error) {
        if (error instanceof CloudRequestError && !error.retryable) {
          return deploymentFailed(row, now, error.message, { sealedPassword: null, stackStatus: 'CREATE_FAILED' });
        }
        throw error;
      }
    }
    // A new shape reaches the cloud before a start (it starts with it) or as the only command of an online cluster.
    if (row.resizeCommandPending && row.stackId) {
      await cloud.resizeCluster(
        row.stackName,
        engineShapeOf(row.resizeToSize ?? row.size, row.resizeToEngines ?? row.queryEngines),
        row.region,
      );
      sent.patch.resizeCommandPending = false;
    }
    if (row.cloudCommandPending) {
      try {
        if (row.status === 'STARTING') await cloud.startCluster(row.stackName, row.region);
        if (row.status === 'STOPPING') await cloud.stopCluster(row.stackName, row.region);
        if (row.status === 'DELETING') await cloud.deleteCluster(row.stackName, row.region);
      } catch (error) {
        if (error instanceof CloudRequestError && !error.retryable && (row.status === 'STARTING' || row.status === 'STOPPING')) {
          return powerChangeRefused(row, now, error.message);
        }
        throw error;
      }
      sent.patch.cloudCommandPending = false;
    }
    return undefined;
  }

  /**
   * The talk with the cloud, outside any transaction. Never throws: a failure comes back beside what the cloud had
   * accepted before it (a stack id, a command sent), which is written all the same.
   */
  async function consultCloud(row: ClusterRow, now: Date): Promise<{ outcome: ReconcileOutcome; failure?: Error }> {
    const sent = nothingLearnt();
    try {
      const settled = await carryCommand(row, sent, now);
      if (settled) return { outcome: settled };
      const report = outcomeOfReport(row, await cloud.describe(row.stackName, row.region), now);
      return { outcome: { ...report, patch: { ...sent.patch, ...report.patch } } };
    } catch (error) {
      return { outcome: sent, failure: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  /**
   * Writes the outcome if the lease is still ours and the row still carries the status and command we acted on;
   * either way our lease ends. Returns whether the cluster is still busy.
   */
  async function settle(claimed: ClusterRow, holder: string, outcome: ReconcileOutcome): Promise<boolean> {
    const written = await db.transaction(async (tx) => {
      const current = await repository.lockLeased(claimed.id, holder, tx);
      // Our lease ran out and another job took the cluster over: its word stands, ours is dropped.
      if (!current) {
        const seen = await repository.findById(claimed.id, tx);
        return { status: seen?.status, dropped: true, resizing: !!seen?.resizeToSize };
      }
      const unchanged =
        current.status === claimed.status &&
        current.cloudCommandPending === claimed.cloudCommandPending &&
        current.resizeCommandPending === claimed.resizeCommandPending &&
        current.resizeToSize === claimed.resizeToSize &&
        current.statusUpdatedAt.getTime() === claimed.statusUpdatedAt.getTime();
      if (!unchanged) {
        await repository.releaseLease(claimed.id, holder, tx);
        return { status: current.status, dropped: true, resizing: current.resizeToSize !== null };
      }
      // The row first: each audit entry is stamped with the shape the cluster has from it on.
      await repository.update(claimed.id, { ...outcome.patch, reconcileLeaseHolder: null, reconcileLeaseUntil: null }, tx);
      for (const entry of outcome.audits) await audit(claimed.id, entry.event, entry.description, 'System', tx);
      if (outcome.leavesSubscription) await subscriptions.adjustActiveClusterCount(claimed.subscriptionId, -1, tx);
      const resizeTo = outcome.patch.resizeToSize !== undefined ? outcome.patch.resizeToSize : current.resizeToSize;
      return { status: outcome.patch.status ?? current.status, dropped: false, resizing: resizeTo !== null };
    });
    if (written.dropped) logger.info({ clusterId: claimed.id }, 'cluster changed while the cloud was asked; its report is dropped');
    else if (outcome.warning) logger.warn(outcome.warning.details, outcome.warning.message);
    return written.resizing || (!!written.status && isClusterBusy(written.status as ClusterStatus));
  }

  /** Brings one cluster's row up to date with the cloud; returns whether it is still busy. */
  async function reconcile(clusterId: string): Promise<boolean> {
    const holder = randomUUID();
    const now = clock.now();
    const claimed = await repository.claimLease(clusterId, holder, now, new Date(now.getTime() + RECONCILE_LEASE_MS));
    if (!claimed) {
      // Not busy, or another job holds it right now: keep following only if it still exists and is busy.
      const seen = await repository.findById(clusterId);
      return !!seen && (seen.resizeToSize !== null || isClusterBusy(seen.status as ClusterStatus));
    }
    const { outcome, failure } = await consultCloud(claimed, now);
    const busy = await settle(claimed, holder, outcome);
    if (failure) throw failure;
    return busy;
  }

  return { reconcile };
}

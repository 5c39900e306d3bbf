/**
 * Reconcile: the cloud's word into our rows. Carries a pending command (create, start, stop, delete) to the cloud,
 * reads its report and moves the cluster through the lifecycle (spec section 4). Idempotent, and it takes the
 * cluster row with SKIP LOCKED, so the follow job, the minute sweep and status reads may all call it at once.
 */
import { FAILED_DEPLOYMENT_STATUSES, FAILED_STACK_STATUSES, isClusterBusy, type ClusterStatus } from '@kumo/contract';
import type { FastifyBaseLogger } from 'fastify';
import { CloudRequestError, capacityFromNodes, type CloudProvisioner, type ClusterDescription } from '../../adapters/cloud/index.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { StoredClusterNode } from '../../db/schema.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import type { ClusterRecords } from './cluster-records.js';
import type { ClusterRow, ClusterView, ClustersRepository } from './clusters.repository.js';
import { openPassword } from './password-seal.js';

export function createReconciler(deps: {
  db: Database;
  repository: ClustersRepository;
  cloud: CloudProvisioner;
  subscriptions: Pick<SubscriptionsService, 'adjustActiveClusterCount'>;
  records: Pick<ClusterRecords, 'audit'>;
  clock: Clock;
  secret: string;
  logger: FastifyBaseLogger;
  /** A status read asks the cloud again only if this many seconds passed since this process last did (0: always). */
  readRefreshSeconds?: number;
}) {
  const { db, repository: repo, cloud, subscriptions, clock, secret, logger } = deps;
  const { audit } = deps.records;

  const nodesOf = (description: ClusterDescription): StoredClusterNode[] =>
    description.nodes.map((node) => ({
      host: node.host,
      role: node.role,
      instanceType: node.instanceType,
      core: node.core,
      nodeStatus: node.nodeStatus,
      serviceName: node.serviceName,
      serviceStatus: node.serviceStatus,
    }));

  const capacityOf = (description: ClusterDescription) =>
    capacityFromNodes(description.nodes.map((node) => ({ role: node.role, running: node.serviceStatus === 'Online' })));

  /** Brings one cluster's row up to date with the cloud; returns whether it is still busy. */
  async function reconcile(clusterId: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const row = await repo.tryLock(clusterId, tx);
      if (!row) {
        // Someone else is reconciling it right now: keep following only if it still exists and is busy.
        const seen = await repo.findById(clusterId, tx);
        return !!seen && isClusterBusy(seen.status as ClusterStatus);
      }
      if (!isClusterBusy(row.status as ClusterStatus)) return false;
      const now = clock.now();
      const patch: Partial<ClusterRow> = {};
      const move = (status: ClusterStatus) => Object.assign(patch, { status, statusUpdatedAt: now });

      try {
        if (row.status === 'DEPLOYING' && !row.stackId) {
          if (!row.sealedPassword) {
            move('FAILED');
            patch.failureReason = 'The deployment request was lost before it reached the cloud.';
            await audit(row.id, 'CLUSTER_DEPLOYMENT_FAILED', `Deployment of ${row.name} failed: ${patch.failureReason}`, 'System', tx);
            await repo.update(row.id, patch, tx);
            return false;
          }
          const { stackId } = await cloud.createCluster({
            deploymentId: row.id,
            stackName: row.stackName,
            settings: {
              clusterName: row.name,
              region: row.region,
              backupRegion: row.backupRegion,
              cidr: row.cidr,
              kumoVersion: row.kumoVersion,
            },
            password: openPassword(secret, row.sealedPassword),
          });
          // The cloud has the password now: the portal forgets it.
          Object.assign(patch, { stackId, sealedPassword: null });
        }
        if (row.cloudCommandPending) {
          if (row.status === 'STARTING') await cloud.startCluster(row.stackName, row.region);
          if (row.status === 'STOPPING') await cloud.stopCluster(row.stackName, row.region);
          if (row.status === 'DELETING') await cloud.deleteCluster(row.stackName, row.region);
          patch.cloudCommandPending = false;
        }
      } catch (error) {
        if (error instanceof CloudRequestError && !error.retryable && row.status === 'DEPLOYING') {
          move('FAILED');
          Object.assign(patch, { failureReason: error.message, sealedPassword: null, stackStatus: 'CREATE_FAILED' });
          await audit(row.id, 'CLUSTER_DEPLOYMENT_FAILED', `Deployment of ${row.name} failed: ${error.message}`, 'System', tx);
          await repo.update(row.id, patch, tx);
          return false;
        }
        // The cloud refused to start or stop (e.g. no capacity in the zone): back to where it was, said in the log.
        if (error instanceof CloudRequestError && !error.retryable && (row.status === 'STARTING' || row.status === 'STOPPING')) {
          const back: ClusterStatus = row.status === 'STARTING' ? 'OFFLINE' : 'ONLINE';
          move(back);
          Object.assign(patch, { cloudCommandPending: false, failureReason: error.message });
          const verb = row.status === 'STARTING' ? 'start' : 'stop';
          await audit(
            row.id,
            row.status === 'STARTING' ? 'CLUSTER_STOPPED' : 'CLUSTER_STARTED',
            `The cloud refused to ${verb} ${row.name}: ${error.message}`,
            'System',
            tx,
          );
          await repo.update(row.id, patch, tx);
          return false;
        }
        throw error;
      }

      const description = await cloud.describe(row.stackName, row.region);
      Object.assign(patch, {
        stackStatus: description.stackStatus,
        deploymentStatus: description.deploymentStatus,
        nodes: nodesOf(description),
        capacity: capacityOf(description),
      });

      switch (row.status) {
        case 'DEPLOYING': {
          if (description.stackStatus === 'CREATE_COMPLETE' && row.stackStatus !== 'CREATE_COMPLETE') {
            await audit(row.id, 'CLUSTER_RESOURCES_CREATED', `Cloud resources of ${row.name} were created.`, 'System', tx);
          }
          const stackFailed = !!description.stackStatus && FAILED_STACK_STATUSES.includes(description.stackStatus);
          const deploymentFailed = !!description.deploymentStatus && FAILED_DEPLOYMENT_STATUSES.includes(description.deploymentStatus);
          if (stackFailed || deploymentFailed) {
            move('FAILED');
            patch.failureReason = description.failureReason ?? null;
            await audit(
              row.id,
              'CLUSTER_DEPLOYMENT_FAILED',
              `Deployment of ${row.name} failed${description.failureReason ? `: ${description.failureReason}` : '.'}`,
              'System',
              tx,
            );
          } else if (description.deploymentStatus === 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE' && description.powerState === 'RUNNING') {
            move('ONLINE');
            Object.assign(patch, { deployedAt: now, managerUrl: description.managerUrl ?? null, portalUrl: description.portalUrl ?? null });
            await audit(row.id, 'CLUSTER_DEPLOYED', `${row.name} was deployed and is online.`, 'System', tx);
          }
          break;
        }
        case 'STARTING':
          if (!row.cloudCommandPending && description.powerState === 'RUNNING') {
            move('ONLINE');
            Object.assign(patch, { managerUrl: description.managerUrl ?? null, portalUrl: description.portalUrl ?? null });
            await audit(row.id, 'CLUSTER_STARTED', `${row.name} started and is online.`, 'System', tx);
          }
          break;
        case 'STOPPING':
          if (!row.cloudCommandPending && description.powerState === 'STOPPED') {
            move('OFFLINE');
            Object.assign(patch, { managerUrl: null, portalUrl: null, capacity: 0 });
            await audit(row.id, 'CLUSTER_STOPPED', `${row.name} stopped.`, 'System', tx);
          }
          break;
        case 'DELETING':
          if (!row.cloudCommandPending && (description.stackStatus === 'DELETE_COMPLETE' || description.stackStatus === null)) {
            move('DELETED');
            Object.assign(patch, { deletedAt: now, managerUrl: null, portalUrl: null, capacity: 0, nodes: [] });
            await subscriptions.adjustActiveClusterCount(row.subscriptionId, -1, tx);
            await audit(row.id, 'CLUSTER_DELETED', `${row.name} was deleted.`, 'System', tx);
          } else if (!row.cloudCommandPending && description.stackStatus === 'DELETE_FAILED') {
            // Some resources stayed behind (spec: DELETED_PARTIALLY, shown as Deleted): the cluster is gone for the
            // customer and no longer counts; what is left is for operators, named in the reason.
            move('DELETED_PARTIALLY');
            Object.assign(patch, {
              deletedAt: now,
              managerUrl: null,
              portalUrl: null,
              capacity: 0,
              nodes: [],
              failureReason: description.failureReason ?? 'DELETE_FAILED',
            });
            await subscriptions.adjustActiveClusterCount(row.subscriptionId, -1, tx);
            await audit(
              row.id,
              'CLUSTER_DELETED',
              `${row.name} was deleted; some cloud resources could not be removed and are left to the operators.`,
              'System',
              tx,
            );
            logger.warn(
              { clusterId: row.id, stackName: row.stackName, reason: description.failureReason },
              'cluster stack deletion failed: resources left behind',
            );
          }
          break;
      }
      await repo.update(row.id, patch, tx);
      return isClusterBusy((patch.status ?? row.status) as ClusterStatus);
    });
  }

  // When this process last refreshed a cluster for a read: polling consoles must not turn into cloud API storms.
  const lastReadRefresh = new Map<string, number>();

  /** Reconciles without letting a cloud failure break a read: the jobs retry it. */
  async function refreshQuietly(views: ClusterView[]): Promise<boolean> {
    let changed = false;
    const now = clock.now().getTime();
    for (const view of views) {
      if (!isClusterBusy(view.cluster.status as ClusterStatus)) continue;
      const last = lastReadRefresh.get(view.cluster.id);
      if (deps.readRefreshSeconds && last !== undefined && now - last < deps.readRefreshSeconds * 1000) continue;
      lastReadRefresh.set(view.cluster.id, now);
      if (lastReadRefresh.size > 10_000) lastReadRefresh.clear();
      try {
        await reconcile(view.cluster.id);
        changed = true;
      } catch (error) {
        logger.warn({ err: error, clusterId: view.cluster.id }, 'cluster refresh failed');
      }
    }
    return changed;
  }

  return { reconcile, refreshQuietly };
}

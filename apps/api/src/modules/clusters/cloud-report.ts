/**
 * What the cloud's report means for a cluster (spec section 4): pure, so reconcile can decide outside any
 * transaction and write the decision in one short one.
 */
import { FAILED_DEPLOYMENT_STATUSES, FAILED_STACK_STATUSES, shapeLabel, type AuditEvent } from '@kumo/contract';
import { capacityFromNodes, type ClusterDescription, type QueryEngineShape } from '../../adapters/cloud/index.js';
import { engineShapeOf } from './resize.js';
import type { StoredClusterNode } from './clusters.schema.js';
import type { ClusterRow } from './clusters.repository.js';

/** One look at the cloud, decided: the row's changes, the audit entries, and what follows from them. */
export interface ReconcileOutcome {
  patch: Partial<ClusterRow>;
  audits: { event: AuditEvent; description: string }[];
  /** The cluster is gone: it no longer counts among its subscription's clusters. */
  leavesSubscription?: boolean;
  /** Said to operators once the outcome is written. */
  warning?: { message: string; details: Record<string, unknown> };
}

export const nothingLearnt = (): ReconcileOutcome => ({ patch: {}, audits: [] });

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

/** Whether the cloud reports exactly the engines of the shape, all online. */
function enginesInPlace(description: ClusterDescription, shape: QueryEngineShape): boolean {
  const engines = description.nodes.filter((node) => node.role === 'QUERY_ENGINES');
  return (
    engines.length === shape.count && engines.every((node) => node.instanceType === shape.instanceType && node.serviceStatus === 'Online')
  );
}

/** A deployment that cannot go on: FAILED, with the reason in the row and the audit log. */
export function deploymentFailed(row: ClusterRow, now: Date, reason: string, extra: Partial<ClusterRow> = {}): ReconcileOutcome {
  return {
    patch: { status: 'FAILED', statusUpdatedAt: now, failureReason: reason, ...extra },
    audits: [{ event: 'CLUSTER_DEPLOYMENT_FAILED', description: `Deployment of ${row.name} failed: ${reason}` }],
  };
}

/** The cloud refused to start or stop (e.g. no capacity in the zone): back to where it was, said in the log. */
export function powerChangeRefused(row: ClusterRow, now: Date, reason: string): ReconcileOutcome {
  const starting = row.status === 'STARTING';
  return {
    patch: { status: starting ? 'OFFLINE' : 'ONLINE', statusUpdatedAt: now, cloudCommandPending: false, failureReason: reason },
    audits: [
      {
        event: starting ? 'CLUSTER_STOPPED' : 'CLUSTER_STARTED',
        description: `The cloud refused to ${starting ? 'start' : 'stop'} ${row.name}: ${reason}`,
      },
    ],
  };
}

/**
 * Moves a busy cluster on by the cloud's report. `row` is the cluster as it was claimed: while its command was
 * still pending the report predates the command, so it moves nothing but the readings.
 */
export function outcomeOfReport(row: ClusterRow, description: ClusterDescription, now: Date): ReconcileOutcome {
  const patch: Partial<ClusterRow> = {
    stackStatus: description.stackStatus,
    deploymentStatus: description.deploymentStatus,
    nodes: nodesOf(description),
    capacity: capacityOf(description),
  };
  const outcome: ReconcileOutcome = { patch, audits: [] };
  const move = (status: ClusterRow['status'], changes: Partial<ClusterRow> = {}) =>
    Object.assign(patch, { status, statusUpdatedAt: now, ...changes });
  const say = (event: AuditEvent, description: string) => outcome.audits.push({ event, description });
  const links = { managerUrl: description.managerUrl ?? null, portalUrl: description.portalUrl ?? null };
  const gone = { deletedAt: now, managerUrl: null, portalUrl: null, capacity: 0, nodes: [] };

  if (row.resizeToSize && row.resizeToEngines && !row.resizeCommandPending) {
    const target = { size: row.resizeToSize, queryEngines: row.resizeToEngines };
    const done = { size: target.size, queryEngines: target.queryEngines, resizeToSize: null, resizeToEngines: null };
    if (row.status === 'ONLINE' && !description.resizing && enginesInPlace(description, engineShapeOf(target.size, target.queryEngines))) {
      Object.assign(patch, done);
      say('CLUSTER_RESIZED', `${row.name} runs ${shapeLabel(target.size, target.queryEngines)}: its query engines are in place.`);
    } else if (row.status !== 'ONLINE') {
      // Stopped (or deleted) before the engines stood: the cloud keeps the new shape for the next start.
      Object.assign(patch, done);
    }
  }

  switch (row.status) {
    case 'DEPLOYING': {
      if (description.stackStatus === 'CREATE_COMPLETE' && row.stackStatus !== 'CREATE_COMPLETE') {
        say('CLUSTER_RESOURCES_CREATED', `Cloud resources of ${row.name} were created.`);
      }
      const stackFailed = !!description.stackStatus && FAILED_STACK_STATUSES.includes(description.stackStatus);
      const deploymentFailed = !!description.deploymentStatus && FAILED_DEPLOYMENT_STATUSES.includes(description.deploymentStatus);
      if (stackFailed || deploymentFailed) {
        move('FAILED', { failureReason: description.failureReason ?? null });
        say(
          'CLUSTER_DEPLOYMENT_FAILED',
          `Deployment of ${row.name} failed${description.failureReason ? `: ${description.failureReason}` : '.'}`,
        );
      } else if (description.deploymentStatus === 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE' && description.powerState === 'RUNNING') {
        move('ONLINE', { deployedAt: now, ...links });
        say('CLUSTER_DEPLOYED', `${row.name} was deployed and is online.`);
      }
      break;
    }
    case 'STARTING':
      if (!row.cloudCommandPending && description.powerState === 'RUNNING') {
        move('ONLINE', links);
        say('CLUSTER_STARTED', `${row.name} started and is online.`);
      }
      break;
    case 'STOPPING':
      if (!row.cloudCommandPending && description.powerState === 'STOPPED') {
        move('OFFLINE', { managerUrl: null, portalUrl: null, capacity: 0 });
        say('CLUSTER_STOPPED', `${row.name} stopped.`);
      }
      break;
    case 'DELETING':
      if (!row.cloudCommandPending && (description.stackStatus === 'DELETE_COMPLETE' || description.stackStatus === null)) {
        move('DELETED', gone);
        outcome.leavesSubscription = true;
        say('CLUSTER_DELETED', `${row.name} was deleted.`);
      } else if (!row.cloudCommandPending && description.stackStatus === 'DELETE_FAILED') {
        // Some resources stayed behind (spec: DELETED_PARTIALLY, shown as Deleted): the cluster is gone for the
        // customer and no longer counts; what is left is for operators, named in the reason.
        move('DELETED_PARTIALLY', { ...gone, failureReason: description.failureReason ?? 'DELETE_FAILED' });
        outcome.leavesSubscription = true;
        say('CLUSTER_DELETED', `${row.name} was deleted; some cloud resources could not be removed and are left to the operators.`);
        outcome.warning = {
          message: 'cluster stack deletion failed: resources left behind',
          details: { clusterId: row.id, stackName: row.stackName, reason: description.failureReason },
        };
      }
      break;
  }
  return outcome;
}

/**
 * The simulated cloud's behaviour as pure functions of time. The driver stores only when each request
 * reached it (stack creation, the last start or stop, the delete); every status is computed from those
 * instants and the clock, on the cloud's own faster time (SIM_TIME_SCALE). Nothing is "in flight" in
 * memory, so a portal restart in the middle of a deployment, a stop or a delete resumes where the
 * clock says it is.
 */
import type { DeploymentStatus, StackStatus } from '@kumo/contract';
import { engineLayoutOf, layoutNodes, roleLayout } from '../template/node-layout.js';
import type { CloudNode, CloudPowerState, ClusterDescription } from '../cloud-provisioner.js';
import { enginesDuringResize, resizeMinutes, type EngineShape } from './sim-resize.js';

/** Minutes of simulated time at which things happen (spec section 9: deployment ~1 h, stop ≤ 5 min, delete 5-10 min). */
export const SIM_TIMELINE = {
  /** The stack's resources (VPC, instances) are created by then. */
  stackCompleteAt: 12,
  /** A failing stack reports CREATE_FAILED, then rolls back. */
  stackFailedAt: 8,
  rollbackCompleteAt: 11,
  /** Node k (0-based) boots at stackCompleteAt + k * nodeInterval, its service is online serviceLag later. */
  nodeInterval: 5,
  serviceLag: 8,
  deploymentCompleteAt: 60,
  /** Stop: node k stops at (k + 1) * stopInterval (8 nodes → 4 minutes). */
  stopInterval: 0.5,
  /** Start: node k runs at (k + 1) * startInterval, its service is online startServiceLag later (≈ 7 minutes). */
  startInterval: 0.5,
  startServiceLag: 3,
  /** Delete completes within 5-10 minutes. */
  deleteCompleteAt: 7,
} as const;

export interface SimStackRecord {
  stackName: string;
  deploymentId: string;
  fails: boolean;
  createdAt: Date;
  powerAction: 'START' | 'STOP' | null;
  powerActionAt: Date | null;
  deleteRequestedAt: Date | null;
  /** The query engines asked for last; left out, the layout's. */
  engines?: EngineShape;
  /** While running: the shape the last resize started from, and when (its steps follow from then). */
  resizeFrom?: EngineShape | null;
  resizedAt?: Date | null;
}

/** Simulated minutes between two real instants. */
export function simMinutes(from: Date, to: Date, timeScale: number): number {
  return Math.max(0, ((to.getTime() - from.getTime()) * timeScale) / 60_000);
}

export function describeSimStack(
  stack: SimStackRecord | undefined,
  now: Date,
  timeScale: number,
  urls: { manager: string; portal: string },
): ClusterDescription {
  if (!stack) return { stackStatus: null, deploymentStatus: null, powerState: 'STOPPED', nodes: [] };
  const t = SIM_TIMELINE;
  const sinceCreate = simMinutes(stack.createdAt, now, timeScale);
  const layout = layoutNodes(stack.engines && engineLayoutOf(stack.engines.instanceType, stack.engines.count));

  // Deletion overrides everything else once asked for.
  if (stack.deleteRequestedAt) {
    const sinceDelete = simMinutes(stack.deleteRequestedAt, now, timeScale);
    if (sinceDelete >= t.deleteCompleteAt)
      return { stackStatus: 'DELETE_COMPLETE', deploymentStatus: null, powerState: 'STOPPED', nodes: [] };
    const nodes = layout.map((node) => toNode(node, 'Stopped', 'Offline'));
    return { stackStatus: 'DELETE_IN_PROGRESS', deploymentStatus: null, powerState: 'STOPPING', nodes };
  }

  if (stack.fails) {
    const stackStatus: StackStatus =
      sinceCreate < t.stackFailedAt ? 'CREATE_IN_PROGRESS' : sinceCreate < t.rollbackCompleteAt ? 'CREATE_FAILED' : 'ROLLBACK_COMPLETE';
    return {
      stackStatus,
      deploymentStatus: null,
      powerState: 'STOPPED',
      nodes: [],
      ...(stackStatus === 'CREATE_IN_PROGRESS'
        ? {}
        : { failureReason: 'The following resource(s) failed to create: [QueryEngine1]. Rollback requested by user.' }),
    };
  }

  if (sinceCreate < t.stackCompleteAt) {
    return {
      stackStatus: 'CREATE_IN_PROGRESS',
      deploymentStatus: null,
      powerState: 'PENDING',
      nodes: layout.map((node) => toNode(node, 'Pending', 'Offline')),
    };
  }

  const deploymentDone = sinceCreate >= t.deploymentCompleteAt;
  const deploymentStatus: DeploymentStatus = deploymentDone ? 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE' : 'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS';
  if (!deploymentDone) {
    const nodes = layout.map((node, k) => {
      const boots = t.stackCompleteAt + k * t.nodeInterval;
      return toNode(
        node,
        sinceCreate >= boots ? 'Running' : 'Pending',
        sinceCreate >= boots + t.serviceLag ? 'Online' : sinceCreate >= boots ? 'Starting' : 'Offline',
      );
    });
    return { stackStatus: 'CREATE_COMPLETE', deploymentStatus, powerState: 'PENDING', nodes };
  }

  let powerState: CloudPowerState = 'RUNNING';
  let nodes: CloudNode[] = layout.map((node) => toNode(node, 'Running', 'Online'));
  if (stack.powerAction && stack.powerActionAt) {
    const since = simMinutes(stack.powerActionAt, now, timeScale);
    if (stack.powerAction === 'STOP') {
      nodes = layout.map((node, k) => {
        const stopped = since >= (k + 1) * t.stopInterval;
        return toNode(node, stopped ? 'Stopped' : 'Running', 'Offline');
      });
      powerState = nodes.every((node) => node.nodeStatus === 'Stopped') ? 'STOPPED' : 'STOPPING';
    } else {
      nodes = layout.map((node, k) => {
        const runs = (k + 1) * t.startInterval;
        return toNode(
          node,
          since >= runs ? 'Running' : 'Stopped',
          since >= runs + t.startServiceLag ? 'Online' : since >= runs ? 'Starting' : 'Offline',
        );
      });
      powerState = nodes.every((node) => node.serviceStatus === 'Online') ? 'RUNNING' : 'STARTING';
    }
  }
  const resizing = powerState === 'RUNNING' && resizeUnderWay(stack, now, timeScale);
  if (resizing) nodes = [...nodes.filter((node) => node.role !== 'QUERY_ENGINES'), ...resizingEngines(stack, now, timeScale)];
  return {
    stackStatus: 'CREATE_COMPLETE',
    deploymentStatus,
    powerState,
    nodes,
    ...(resizing ? { resizing } : {}),
    ...(powerState === 'RUNNING' ? { managerUrl: urls.manager, portalUrl: urls.portal } : {}),
  };
}

function resizeUnderWay(stack: SimStackRecord, now: Date, timeScale: number): boolean {
  if (!stack.resizeFrom || !stack.resizedAt || !stack.engines) return false;
  return simMinutes(stack.resizedAt, now, timeScale) < resizeMinutes(stack.resizeFrom, stack.engines);
}

/** The query engines while a resize moves them, in number order. */
function resizingEngines(stack: SimStackRecord, now: Date, timeScale: number): CloudNode[] {
  const minutes = simMinutes(stack.resizedAt!, now, timeScale);
  const role = roleLayout('QUERY_ENGINES');
  return enginesDuringResize(stack.resizeFrom!, stack.engines!, minutes).map((engine) => ({
    host: `${role.hostPrefix}-${engine.number}`,
    role: 'QUERY_ENGINES',
    instanceType: engine.instanceType,
    core: engineLayoutOf(engine.instanceType, 1).cores,
    nodeStatus: 'Running',
    serviceName: role.serviceName,
    serviceStatus: engine.online ? 'Online' : 'Starting',
  }));
}

function toNode(
  node: ReturnType<typeof layoutNodes>[number],
  nodeStatus: CloudNode['nodeStatus'],
  serviceStatus: CloudNode['serviceStatus'],
): CloudNode {
  return {
    host: node.host,
    role: node.role,
    instanceType: node.instanceType,
    core: node.cores,
    nodeStatus,
    serviceName: node.serviceName,
    serviceStatus,
  };
}

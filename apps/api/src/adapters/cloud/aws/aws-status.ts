/**
 * How the AWS driver reads a cluster's state, as pure functions of what AWS answered:
 * - the stack status comes from DescribeStacks, mapped onto the product's stack statuses;
 * - the product's deployment status comes from the `kumo:deployment-status` tag that the Kumo
 *   installer on the Peripheral node writes on its own instance (IN_PROGRESS while it installs,
 *   COMPLETE or FAILED at the end). The stack finishing only means the machines exist; the tag
 *   is the installer's word that the product runs on them.
 * - nodes and power come from the stack's instances (DescribeInstances) and their status checks
 *   (DescribeInstanceStatus): a running instance whose checks pass counts as Online.
 */
import type { Instance, InstanceStatus } from '@aws-sdk/client-ec2';
import type { Stack } from '@aws-sdk/client-cloudformation';
import { DEPLOYMENT_STATUSES, type DeploymentStatus, type StackStatus } from '@kumo/contract';
import type { CloudNode, CloudNodeStatus, CloudPowerState, CloudServiceStatus, ClusterDescription } from '../cloud-provisioner.js';
import { TAG_KEYS, TEMPLATE_OUTPUTS, TEMPLATE_PARAMETERS } from '../template/cluster-template.js';
import { engineLayoutOf, layoutNodes, type EngineLayout, type LayoutNode } from '../template/node-layout.js';
import { UPDATING_STACK_STATUSES } from './aws-resize.js';

/** CloudFormation's statuses onto the product's. Updates (an operator changed the stack) count as created. */
export function mapStackStatus(status: string | undefined): StackStatus {
  switch (status) {
    case 'CREATE_IN_PROGRESS':
    case 'REVIEW_IN_PROGRESS':
      return 'CREATE_IN_PROGRESS';
    case 'CREATE_COMPLETE':
    case 'UPDATE_IN_PROGRESS':
    case 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS':
    case 'UPDATE_COMPLETE':
    case 'UPDATE_ROLLBACK_IN_PROGRESS':
    case 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS':
    case 'UPDATE_ROLLBACK_COMPLETE':
    case 'IMPORT_COMPLETE':
    case 'IMPORT_ROLLBACK_COMPLETE':
      return 'CREATE_COMPLETE';
    case 'CREATE_FAILED':
    case 'ROLLBACK_IN_PROGRESS':
    case 'ROLLBACK_FAILED':
    case 'ROLLBACK_COMPLETE':
    case 'DELETE_IN_PROGRESS':
    case 'DELETE_COMPLETE':
    case 'DELETE_FAILED':
      return status;
    default:
      // UPDATE_FAILED, UPDATE_ROLLBACK_FAILED, IMPORT_* in progress or failed, anything new.
      return 'EXCEPTION';
  }
}

const STACK_SETTLED_CREATED: readonly StackStatus[] = ['CREATE_COMPLETE'];

export const tagValue = (tags: { Key?: string; Value?: string }[] | undefined, key: string) => tags?.find((t) => t.Key === key)?.Value;

/** The deployment status of a created stack, from the installer's tag on the Peripheral node. */
export function deploymentStatusOf(stackStatus: StackStatus, instances: Instance[]): DeploymentStatus | null {
  if (!STACK_SETTLED_CREATED.includes(stackStatus)) return null;
  const peripheral = instances.find((i) => tagValue(i.Tags, TAG_KEYS.role) === 'PERIPHERAL_SERVICES');
  // The stack says it is complete but its Peripheral node is gone: someone terminated it.
  if (!peripheral) return 'KUMO_CLUSTER_DEPLOYMENT_EXCEPTION';
  const tag = tagValue(peripheral.Tags, TAG_KEYS.deploymentStatus);
  if (!tag) return 'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS';
  return (DEPLOYMENT_STATUSES as readonly string[]).includes(tag) ? (tag as DeploymentStatus) : 'KUMO_CLUSTER_DEPLOYMENT_EXCEPTION';
}

type Ec2State = 'pending' | 'running' | 'shutting-down' | 'terminated' | 'stopping' | 'stopped' | 'absent';

/** One layout node with the instance that plays it (absent before the stack creates it). */
export interface NodeObservation {
  node: LayoutNode;
  instanceId?: string;
  state: Ec2State;
  /** Both EC2 status checks pass. */
  healthy: boolean;
}

/** The query engines the stack's parameters ask for; undefined for a stack made before sizes (the layout's five). */
export function enginesOfStack(stack: Stack): EngineLayout | undefined {
  const value = (key: string) => stack.Parameters?.find((p) => p.ParameterKey === key)?.ParameterValue;
  const type = value(TEMPLATE_PARAMETERS.queryEngineInstanceType);
  const count = Number(value(TEMPLATE_PARAMETERS.queryEngineCount));
  return type && Number.isInteger(count) && count > 0 ? engineLayoutOf(type, count) : undefined;
}

export function observeNodes(instances: Instance[], statuses: InstanceStatus[], engines?: EngineLayout): NodeObservation[] {
  const live = instances.filter((i) => i.State?.Name !== 'terminated');
  return layoutNodes(engines).map((node) => {
    const instance = live.find((i) => tagValue(i.Tags, TAG_KEYS.node) === node.host);
    if (!instance) return { node, state: 'absent', healthy: false };
    const status = statuses.find((s) => s.InstanceId === instance.InstanceId);
    const healthy = status?.InstanceStatus?.Status === 'ok' && status?.SystemStatus?.Status === 'ok';
    return { node, instanceId: instance.InstanceId, state: (instance.State?.Name ?? 'pending') as Ec2State, healthy };
  });
}

function toCloudNode(o: NodeObservation, deploymentComplete: boolean): CloudNode {
  const nodeStatus: CloudNodeStatus =
    o.state === 'running' || o.state === 'stopping' ? 'Running' : o.state === 'pending' || o.state === 'absent' ? 'Pending' : 'Stopped';
  const serviceStatus: CloudServiceStatus = o.state !== 'running' ? 'Offline' : o.healthy && deploymentComplete ? 'Online' : 'Starting';
  return {
    host: o.node.host,
    role: o.node.role,
    instanceType: o.node.instanceType,
    core: o.node.cores,
    nodeStatus,
    serviceName: o.node.serviceName,
    serviceStatus,
  };
}

/**
 * The power state of a created, deployed cluster. Any node on its way up or down decides it;
 * at rest, the cluster runs when its BI Server and Peripheral node run (fewer query engines
 * only lower the capacity) and is stopped otherwise.
 */
export function powerStateOf(observations: NodeObservation[]): CloudPowerState {
  const states = observations.map((o) => o.state);
  if (states.some((s) => s === 'stopping' || s === 'shutting-down')) return 'STOPPING';
  if (states.some((s) => s === 'pending')) return 'STARTING';
  const essentials = observations.filter((o) => o.node.role === 'BI_SERVER' || o.node.role === 'PERIPHERAL_SERVICES');
  if (essentials.every((o) => o.state === 'running')) {
    return observations.every((o) => o.state !== 'running' || o.healthy) ? 'RUNNING' : 'STARTING';
  }
  return 'STOPPED';
}

/** Puts together what describe() reports. */
export function describeFromAws(args: {
  stack: Stack;
  instances: Instance[];
  statuses: InstanceStatus[];
  failureReason?: string;
}): ClusterDescription {
  const stackStatus = mapStackStatus(args.stack.StackStatus);
  if (stackStatus === 'DELETE_COMPLETE') return { stackStatus, deploymentStatus: null, powerState: 'STOPPED', nodes: [] };
  const deploymentStatus = deploymentStatusOf(stackStatus, args.instances);
  const observations = observeNodes(args.instances, args.statuses, enginesOfStack(args.stack));
  const deployed = deploymentStatus === 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE';
  const nodes = observations.map((o) => toCloudNode(o, deployed));
  const failure = args.failureReason ? { failureReason: args.failureReason } : {};

  if (stackStatus === 'DELETE_IN_PROGRESS' || stackStatus === 'DELETE_FAILED') {
    return { stackStatus, deploymentStatus: null, powerState: 'STOPPING', nodes, ...failure };
  }
  if (stackStatus !== 'CREATE_COMPLETE') {
    const powerState: CloudPowerState = stackStatus === 'CREATE_IN_PROGRESS' ? 'PENDING' : 'STOPPED';
    return { stackStatus, deploymentStatus, powerState, nodes: stackStatus === 'CREATE_IN_PROGRESS' ? nodes : [], ...failure };
  }
  if (!deployed) return { stackStatus, deploymentStatus, powerState: 'PENDING', nodes, ...failure };

  const powerState = powerStateOf(observations);
  const output = (key: string) => args.stack.Outputs?.find((o) => o.OutputKey === key)?.OutputValue;
  const managerUrl = output(TEMPLATE_OUTPUTS.managerUrl);
  const portalUrl = output(TEMPLATE_OUTPUTS.portalUrl);
  return {
    stackStatus,
    deploymentStatus,
    powerState,
    nodes,
    ...(UPDATING_STACK_STATUSES.includes(args.stack.StackStatus ?? '') ? { resizing: true } : {}),
    ...(powerState === 'RUNNING' && managerUrl && portalUrl ? { managerUrl, portalUrl } : {}),
    ...failure,
  };
}

/**
 * The cloud port: everything the clusters module asks of a cloud. Two drivers implement it, chosen
 * by CLOUD_DRIVER: `aws` (CloudFormation stacks, EC2 start/stop) and `simulated` (the default, a cloud
 * that runs inside the portal on durable jobs). The module never learns which one it talks to: it
 * asks for work and then reads back what the cloud reports through describe().
 */
import type { DeploymentStatus, StackStatus } from '@kumo/contract';
import type { NodeRole, ServiceName } from './template/node-layout.js';
import type { ClusterSqlPort } from './sql-port.js';

/** The settings a cluster is deployed with (what the template is generated from). */
export interface ClusterSettings {
  clusterName: string;
  /** AWS region of the cluster, e.g. us-east-1. */
  region: string;
  /** Region the backup bucket is replicated to; null when disaster recovery is off. */
  backupRegion: string | null;
  /** The VPC block, e.g. 10.12.0.0/16. */
  cidr: string;
  kumoVersion: string;
  /** The query engines' instance type and how many run (the cluster's size and engines); left out, the layout's M × 5. */
  queryEngines?: QueryEngineShape;
}

export interface QueryEngineShape {
  instanceType: string;
  count: number;
}

export interface CreateClusterInput {
  /** Our id of the cluster; drivers tag resources with it. */
  deploymentId: string;
  /** Name of the stack to create (unique per cluster, derived from the deployment id). */
  stackName: string;
  settings: ClusterSettings;
  /**
   * The cluster's admin password. Given once, never stored by the portal: the AWS driver passes it
   * as a NoEcho template parameter; the simulated driver only checks it is there.
   */
  password: string;
  /** The portal's own SQL credential for the cluster (console queries); kept by the cloud only as a slow hash. */
  portalSqlCredential?: string;
  /**
   * The ranges that may reach the cluster (its network access list), or null for anywhere. The stack is created with
   * the first IPv4 range (or none); `applyNetworkAccess` brings it to the whole list once the stack stands.
   */
  ingress?: string[] | null;
}

/** Node state as the cloud reports it. */
export type CloudNodeStatus = 'Pending' | 'Running' | 'Stopped';
/** Service state on the node as Kumo reports it. */
export type CloudServiceStatus = 'Starting' | 'Online' | 'Offline';

export interface CloudNode {
  host: string;
  role: NodeRole;
  instanceType: string;
  core: number;
  nodeStatus: CloudNodeStatus;
  serviceName: ServiceName;
  serviceStatus: CloudServiceStatus;
}

/**
 * What is running: the power state of the cluster's instances as a whole.
 * RUNNING: all instances running and services online; STOPPED: all stopped; STARTING / STOPPING: on the way.
 */
export type CloudPowerState = 'PENDING' | 'STARTING' | 'RUNNING' | 'STOPPING' | 'STOPPED';

export interface ClusterDescription {
  /** null when the stack does not exist (never created, or deleted and gone). */
  stackStatus: StackStatus | null;
  /** null until the product deployment began. */
  deploymentStatus: DeploymentStatus | null;
  powerState: CloudPowerState;
  nodes: CloudNode[];
  /** Set once the Kumo services are reachable. */
  managerUrl?: string;
  portalUrl?: string;
  /** Why the stack or deployment failed, in the cloud's words. */
  failureReason?: string;
  /** True while a resize still moves the query engines (the nodes list shows them as they stand). */
  resizing?: boolean;
}

/** A stretch of real time, from `from` (included) to `to` (excluded). */
export interface TimeWindow {
  from: Date;
  to: Date;
}

/**
 * API requests a running cluster typically makes to its persistent storage in an hour (reads of model segments by the
 * query engines, writes by builds). Requests are charged as the cloud counts them; this figure is only for what a
 * cluster is expected to cost before it is counted (the cost preview and the month's forecast).
 */
export const TYPICAL_STORAGE_REQUESTS_PER_HOUR = 20_000;

export interface CloudProvisioner {
  readonly kind: 'aws' | 'simulated';
  /** Starts the stack creation; returns at once with the cloud's stack id. */
  createCluster(input: CreateClusterInput): Promise<{ stackId: string }>;
  /**
   * How the stack, the deployment and the nodes stand now. `region` is the cluster's region: stacks are
   * regional, so the AWS driver needs it (without it, AWS_REGION); the simulated driver ignores it.
   */
  describe(stackName: string, region?: string): Promise<ClusterDescription>;
  /** Starts stopping every instance of the stack. */
  stopCluster(stackName: string, region?: string): Promise<void>;
  /** Starts starting every instance of the stack. */
  startCluster(stackName: string, region?: string): Promise<void>;
  /**
   * Starts bringing the query engines to a new shape. A running cluster keeps serving: engines are added or replaced
   * one at a time, and describe() reports `resizing` until they all stand; a stopped one starts with the shape.
   */
  resizeCluster(stackName: string, engines: QueryEngineShape, region?: string): Promise<void>;
  /** Starts deleting the stack and its resources. describe() then reports DELETE_COMPLETE (or null). */
  deleteCluster(stackName: string, region?: string): Promise<void>;
  /**
   * API requests made to the cluster's persistent storage in each window, as the cloud counts them, in the order of
   * `windows`. A driver that cannot count them leaves this out, and no requests are charged for its clusters.
   */
  storageRequests?(stackName: string, windows: readonly TimeWindow[], region?: string): Promise<number[]>;
  /** Each cluster's SQL endpoint; a driver without one leaves it out, and its clusters cannot be queried. */
  readonly sql?: ClusterSqlPort;
  /**
   * Brings the cluster's firewall (on AWS its security group) to exactly these ranges, or to anywhere for null. A
   * driver whose clusters have no firewall of their own leaves this out: the portal enforces the list itself there.
   */
  applyNetworkAccess?(stackName: string, ingress: readonly string[] | null, region?: string): Promise<void>;
}

/** Thrown by drivers when the cloud refuses a request for a reason the customer can act on. */
export class CloudRequestError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'CloudRequestError';
  }
}

/** Stack name for a cluster: CloudFormation names are [A-Za-z][A-Za-z0-9-]{0,127}. */
export function stackNameFor(deploymentId: string): string {
  return `kumo-${deploymentId}`;
}

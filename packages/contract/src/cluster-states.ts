import { MINIMUM_BALANCE_CENTS } from './money.js';

/** Limits of the create-cluster form (spec sections 5 and 9, decisions.md). */
export const CLUSTER_LIMITS = {
  nameMinLength: 3,
  nameMaxLength: 50,
  descriptionMaxLength: 200,
  passwordMinLength: 12,
  passwordMaxLength: 64,
  /** Below this balance (cents) a cluster can be neither created nor started. */
  minimumBalanceCents: MINIMUM_BALANCE_CENTS,
  /** Capacity is how many query engines are up (0..5). */
  maxCapacity: 5,
  /**
   * AWS accepts VPC blocks from /16 to /28, but the deployment template cuts a public and a private subnet of a
   * quarter each, and a subnet is at least a /28: the cluster's block is a /16 to a /26.
   */
  cidrMinPrefix: 16,
  cidrMaxPrefix: 26,
} as const;

export const CLOUD_PROVIDERS = ['AWS', 'AZURE'] as const;
export type CloudProvider = (typeof CLOUD_PROVIDERS)[number];
/** Only AWS is offered for creation. */
export const CREATABLE_CLOUD_PROVIDERS = ['AWS'] as const;
export const CLOUD_PROVIDER_LABELS: Record<CloudProvider, string> = { AWS: 'AWS', AZURE: 'Azure' };

// ---------------------------------------------------------------------------------------------
// States (spec section 4)
// ---------------------------------------------------------------------------------------------

export const CLUSTER_STATUSES = [
  'DEPLOYING',
  'ONLINE',
  'OFFLINE',
  'FAILED',
  'STARTING',
  'STOPPING',
  'DELETING',
  'DELETE_IN_PROGRESS',
  'DELETED_PARTIALLY',
  'DELETED',
] as const;
export type ClusterStatus = (typeof CLUSTER_STATUSES)[number];

export const CLUSTER_STATUS_LABELS: Record<ClusterStatus, string> = {
  DEPLOYING: 'Deploying...',
  ONLINE: 'Online',
  OFFLINE: 'Offline',
  FAILED: 'Deployment Failed',
  STARTING: 'Starting...',
  STOPPING: 'Stopping...',
  DELETING: 'Deleting...',
  DELETE_IN_PROGRESS: 'Deleting...',
  DELETED_PARTIALLY: 'Deleted',
  DELETED: 'Deleted',
};

/** Colour names of the status text: ONLINE green; OFFLINE and FAILED red; the rest neutral. */
export const CLUSTER_STATUS_COLORS: Record<ClusterStatus, 'green' | 'red' | 'gray' | 'blue'> = {
  DEPLOYING: 'blue',
  ONLINE: 'green',
  OFFLINE: 'red',
  FAILED: 'red',
  STARTING: 'blue',
  STOPPING: 'blue',
  DELETING: 'gray',
  DELETE_IN_PROGRESS: 'gray',
  DELETED_PARTIALLY: 'gray',
  DELETED: 'gray',
};

/** Statuses shown with animated dots (work in progress). */
export const BUSY_CLUSTER_STATUSES: readonly ClusterStatus[] = ['DEPLOYING', 'STARTING', 'STOPPING', 'DELETING', 'DELETE_IN_PROGRESS'];
/** Statuses the console polls every 15 seconds. */
export const POLLED_CLUSTER_STATUSES: readonly ClusterStatus[] = BUSY_CLUSTER_STATUSES;
/** A cluster in one of these is gone for the customer. */
export const GONE_CLUSTER_STATUSES: readonly ClusterStatus[] = ['DELETED', 'DELETED_PARTIALLY'];

export const isClusterBusy = (status: ClusterStatus) => BUSY_CLUSTER_STATUSES.includes(status);
export const isClusterGone = (status: ClusterStatus) => GONE_CLUSTER_STATUSES.includes(status);

/** What a customer may do in each status (spec section 4 and decisions.md: stop only when ONLINE). */
export const CLUSTER_ACTIONS = {
  start: ['OFFLINE'] as readonly ClusterStatus[],
  stop: ['ONLINE'] as readonly ClusterStatus[],
  delete: ['ONLINE', 'OFFLINE', 'FAILED'] as readonly ClusterStatus[],
  /** The cluster's SQL users live in its engine, which exists from deployment until deletion. */
  resetPassword: ['ONLINE', 'OFFLINE', 'STARTING', 'STOPPING'] as readonly ClusterStatus[],
} as const;
export type ClusterAction = keyof typeof CLUSTER_ACTIONS;
export const canClusterDo = (action: ClusterAction, status: ClusterStatus) => CLUSTER_ACTIONS[action].includes(status);

export const STACK_STATUSES = [
  'CREATE_IN_PROGRESS',
  'CREATE_COMPLETE',
  'CREATE_FAILED',
  'ROLLBACK_IN_PROGRESS',
  'ROLLBACK_FAILED',
  'ROLLBACK_COMPLETE',
  'EXCEPTION',
  'DELETE_IN_PROGRESS',
  'DELETE_COMPLETE',
  'DELETE_FAILED',
] as const;
export type StackStatus = (typeof STACK_STATUSES)[number];
/** Stack statuses that mean creation failed (the deployment step shows Failed). */
export const FAILED_STACK_STATUSES: readonly StackStatus[] = [
  'CREATE_FAILED',
  'ROLLBACK_IN_PROGRESS',
  'ROLLBACK_FAILED',
  'ROLLBACK_COMPLETE',
  'EXCEPTION',
];

export const DEPLOYMENT_STATUSES = [
  'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS',
  'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
  'KUMO_CLUSTER_DEPLOYMENT_FAILED',
  'KUMO_CLUSTER_DEPLOYMENT_EXCEPTION',
] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];
export const FAILED_DEPLOYMENT_STATUSES: readonly DeploymentStatus[] = [
  'KUMO_CLUSTER_DEPLOYMENT_FAILED',
  'KUMO_CLUSTER_DEPLOYMENT_EXCEPTION',
];

/** The three deployment steps of the details tab and the state of each icon. */
export type DeploymentStepState = 'default' | 'progress' | 'success' | 'error';
export const DEPLOYMENT_STEP_LABELS = ['Submitting resource creation request', 'Creating resources', 'Deploying the product'] as const;

export function deploymentSteps(stack: StackStatus | null, deployment: DeploymentStatus | null): DeploymentStepState[] {
  const stackState: DeploymentStepState =
    stack === null ? 'progress' : FAILED_STACK_STATUSES.includes(stack) ? 'error' : stack === 'CREATE_IN_PROGRESS' ? 'progress' : 'success';
  const deploymentState: DeploymentStepState =
    stackState !== 'success' || deployment === null
      ? 'default'
      : FAILED_DEPLOYMENT_STATUSES.includes(deployment)
        ? 'error'
        : deployment === 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'
          ? 'success'
          : 'progress';
  return ['success', stackState, deploymentState];
}

/** The name of a capacity level, 0 to 5 (spec section 4): each level lights that many bars. */
export function capacityLabel(level: number): 'Zero' | 'Low' | 'Moderate' | 'High' | 'Full' {
  if (level <= 0) return 'Zero';
  if (level <= 2) return 'Low';
  if (level === 3) return 'Moderate';
  if (level === 4) return 'High';
  return 'Full';
}

export const NODE_ROLES = ['BI_SERVER', 'QUERY_ENGINE', 'BUILD', 'PERIPHERAL'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

/**
 * The fixed node layout of every Kumo cluster, written once: the deployment template builds its
 * instances from it, the simulated cloud brings these nodes up, the node list of the details page
 * shows them and metering charges their cores and volumes. Change a role here and all of them follow.
 * The query engines alone vary: their instance type and count are the cluster's size and engines.
 */
import { CLUSTER_SIZES } from '@kumo/contract';

/** Node roles; the keys are the metering dimensions of the spec (DATA_PROCESS is the Build node). */
export type NodeRole = 'BI_SERVER' | 'QUERY_ENGINES' | 'DATA_PROCESS' | 'PERIPHERAL_SERVICES';

/** Service types of the spec (section 3). */
export type ServiceName = 'Web Portal' | 'BI Server' | 'Query Engine';

export interface NodeRoleLayout {
  role: NodeRole;
  /** Label shown to customers and used in docs. */
  label: string;
  /** How many nodes of this role a cluster has. */
  nodeCount: number;
  /** EC2 instance type of each node. */
  instanceType: string;
  /** vCPUs of that instance type: metering charges per core per hour. */
  coresPerNode: number;
  /** The Kumo service each node of the role runs (the node list's service_name). */
  serviceName: ServiceName;
  /** Root (system) volume of each node, GB. Not metered: part of the node's hourly rate. */
  rootVolumeGb: number;
  /** Local cache volume of each node, GB: metered as LOCAL_STORAGE (Cache Storage). */
  cacheVolumeGb: number;
  /** Persistent data volume of each node, GB: metered as PERSISTENT_STORAGE. */
  persistentVolumeGb: number;
  /** Short logical-id stem used in the CloudFormation template (alphanumeric). */
  templateId: string;
  /** Host name prefix of the nodes (node list's host), e.g. kumo-qe-1. */
  hostPrefix: string;
}

/**
 * BI Server: the reporting server. Query Engines: five nodes serving queries; how many are up is
 * the cluster's capacity (0-5 bars). Build: the data-processing node (it runs the engine in build
 * mode, hence service Query Engine). Peripheral services: Web Portal, Kumo Manager and metadata store.
 */
export const NODE_LAYOUT: readonly NodeRoleLayout[] = Object.freeze([
  {
    role: 'BI_SERVER',
    label: 'BI Server',
    nodeCount: 1,
    instanceType: 'r6i.2xlarge',
    coresPerNode: 8,
    serviceName: 'BI Server',
    rootVolumeGb: 50,
    cacheVolumeGb: 0,
    persistentVolumeGb: 0,
    templateId: 'BiServer',
    hostPrefix: 'kumo-bi',
  },
  {
    role: 'QUERY_ENGINES',
    label: 'Query Engines',
    nodeCount: 5,
    instanceType: 'r6i.4xlarge',
    coresPerNode: 16,
    serviceName: 'Query Engine',
    rootVolumeGb: 50,
    cacheVolumeGb: 200,
    persistentVolumeGb: 0,
    templateId: 'QueryEngine',
    hostPrefix: 'kumo-qe',
  },
  {
    role: 'DATA_PROCESS',
    label: 'Build',
    nodeCount: 1,
    instanceType: 'c6i.4xlarge',
    coresPerNode: 16,
    serviceName: 'Query Engine',
    rootVolumeGb: 50,
    cacheVolumeGb: 0,
    persistentVolumeGb: 0,
    templateId: 'Build',
    hostPrefix: 'kumo-build',
  },
  {
    role: 'PERIPHERAL_SERVICES',
    label: 'Peripheral services',
    nodeCount: 1,
    instanceType: 'm6i.xlarge',
    coresPerNode: 4,
    serviceName: 'Web Portal',
    rootVolumeGb: 50,
    cacheVolumeGb: 0,
    persistentVolumeGb: 500,
    templateId: 'Peripheral',
    hostPrefix: 'kumo-peripheral',
  },
] satisfies NodeRoleLayout[]);

export const NODE_ROLES: readonly NodeRole[] = NODE_LAYOUT.map((r) => r.role);

export function roleLayout(role: NodeRole): NodeRoleLayout {
  const found = NODE_LAYOUT.find((r) => r.role === role);
  if (!found) throw new Error(`Unknown node role ${role}`);
  return found;
}

/** Number of query engines; also the highest capacity level (spec: capacity 0 to 5). */
export const QUERY_ENGINE_COUNT = roleLayout('QUERY_ENGINES').nodeCount;
export const MAX_CLUSTER_CAPACITY = QUERY_ENGINE_COUNT;
/** The numbers of the query engines a template can hold, 1 to 5: engine k stands while the count is k or more. */
export const QUERY_ENGINE_NUMBERS = Array.from({ length: QUERY_ENGINE_COUNT }, (_, i) => i + 1);

/** Total nodes of a cluster (8). */
export const CLUSTER_NODE_COUNT = NODE_LAYOUT.reduce((sum, r) => sum + r.nodeCount, 0);

/** Cache storage of a whole cluster, GB (metered as LOCAL_STORAGE while the cluster exists). */
export const CLUSTER_CACHE_STORAGE_GB = NODE_LAYOUT.reduce((sum, r) => sum + r.nodeCount * r.cacheVolumeGb, 0);

/** Persistent storage of a whole cluster, GB (metered as PERSISTENT_STORAGE while the cluster exists). */
export const CLUSTER_PERSISTENT_STORAGE_GB = NODE_LAYOUT.reduce((sum, r) => sum + r.nodeCount * r.persistentVolumeGb, 0);

/** Web Portal default user (spec §9) and Kumo Manager default user. */
export const WEB_PORTAL_USER = 'Admin';
export const KUMO_MANAGER_USER = 'kmuser';

/** One node of the layout, numbered from 1 within its role. */
export interface LayoutNode {
  role: NodeRole;
  /** 1-based index within the role. */
  index: number;
  host: string;
  /** Logical id of the instance in the CloudFormation template, e.g. QueryEngine3. */
  logicalId: string;
  instanceType: string;
  cores: number;
  serviceName: ServiceName;
}

/** The query engines of a cluster's shape: their instance type, its cores and how many (the layout's five M when left out). */
export interface EngineLayout {
  instanceType: string;
  cores: number;
  count: number;
}

/** The engines of an instance type (one of the sizes'; the layout's cores for any other), this many. */
export function engineLayoutOf(instanceType: string, count: number): EngineLayout {
  const cores = CLUSTER_SIZES.find((size) => size.instance_type === instanceType)?.cores ?? roleLayout('QUERY_ENGINES').coresPerNode;
  return { instanceType, cores, count };
}

/** Every node of a cluster in a stable order (roles in layout order, then by index), its query engines as `engines` says. */
export function layoutNodes(engines?: EngineLayout): LayoutNode[] {
  return NODE_LAYOUT.flatMap((r) => {
    const shaped = r.role === 'QUERY_ENGINES' && engines;
    return Array.from({ length: shaped ? engines.count : r.nodeCount }, (_, i) => ({
      role: r.role,
      index: i + 1,
      host: `${r.hostPrefix}-${i + 1}`,
      logicalId: `${r.templateId}${i + 1}`,
      instanceType: shaped ? engines.instanceType : r.instanceType,
      cores: shaped ? engines.cores : r.coresPerNode,
      serviceName: r.serviceName,
    }));
  });
}

/** Capacity (0-5 bars) from how many query engines are running; out-of-range counts are clamped. */
export function capacityFromRunningQueryEngines(running: number): number {
  if (!Number.isFinite(running) || running <= 0) return 0;
  return Math.min(MAX_CLUSTER_CAPACITY, Math.floor(running));
}

/** Capacity from a list of nodes with their role and whether they are up. */
export function capacityFromNodes(nodes: ReadonlyArray<{ role: NodeRole; running: boolean }>): number {
  return capacityFromRunningQueryEngines(nodes.filter((n) => n.role === 'QUERY_ENGINES' && n.running).length);
}

/** Cores of the running nodes of one role (what metering charges for an hour). */
export function runningCores(role: NodeRole, runningNodes: number): number {
  const r = roleLayout(role);
  return Math.max(0, Math.min(r.nodeCount, runningNodes)) * r.coresPerNode;
}

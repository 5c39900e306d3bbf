/** How clusters are shown: the list per subscription, one cluster's status and its details with the nodes. */
import {
  CLUSTER_SQL_USER,
  MESSAGES,
  centsToAmount,
  sizeSpecOf,
  type Cluster,
  type ClusterDetailKind,
  type ClusterDetailsResponse,
  type ClusterSize,
  type ClusterStatus,
  type ClusterViewResponse,
  type DeploymentStatus,
  type DeploymentStatusResponse,
  type StackStatus,
} from '@kumo/contract';
import { NODE_LAYOUT, withoutManagerTicket } from '../../adapters/cloud/index.js';
import { notFound } from '../../errors.js';
import type { Caller, ClusterRecords } from './cluster-records.js';
import type { ClusterView, ClustersRepository } from './clusters.repository.js';
import type { ListedCluster } from './list-read.js';

export function createClusterPresentation(deps: {
  repository: ClustersRepository;
  records: Pick<ClusterRecords, 'requireCluster'>;
  /** The cluster's SQL endpoint address (sql-access.ts). */
  sqlEndpointOf: (cluster: ClusterView['cluster']) => string | null;
}) {
  const { repository } = deps;
  const { requireCluster } = deps.records;

  /** What a cluster is shown with: its own columns, its subscription's name and balance, its creator. */
  type Shown = Omit<ClusterView, 'cluster'> & { cluster: ListedCluster };

  /**
   * A Kumo Manager or Web Portal address, only while the cluster is online, and never with a ticket: it opens nothing
   * by itself. Each person gets a short-lived ticket of their own on request (access.ts, `ticket`).
   */
  function address(c: ListedCluster, url: string | null): string | null {
    return url && c.status === 'ONLINE' ? withoutManagerTicket(url) : null;
  }

  function present(view: Shown): Cluster {
    const c = view.cluster;
    const status = c.status as ClusterStatus;
    return {
      deployment_id: c.id,
      cluster_id: `KC-${c.id.slice(0, 8).toUpperCase()}`,
      cluster_name: c.name,
      cluster_description: c.description,
      status,
      cluster_status: status,
      status_update_date: c.statusUpdatedAt.toISOString(),
      cluster_capacity: c.capacity,
      region: c.region,
      deployment_region: c.region,
      cloud_provider: c.cloudProvider as Cluster['cloud_provider'],
      backup_region: c.backupRegion,
      cidr: c.cidr,
      kumo_version: c.kumoVersion,
      stack_name: c.stackName,
      deployed_by: view.creatorName,
      email_id: view.creatorEmail,
      subscription_id: c.subscriptionId,
      subscription_name: view.subscriptionName,
      subscription_balance: centsToAmount(view.subscriptionBalanceCents),
      // Links are offered only while the cluster is online (spec section 2).
      kumo_manager_url: address(c, c.managerUrl),
      kumo_url: address(c, c.portalUrl),
      cluster_stack_status: (c.stackStatus as StackStatus | null) ?? null,
      kumo_cluster_deployment_status: (c.deploymentStatus as DeploymentStatus | null) ?? null,
      created_at: c.createdAt.toISOString(),
      deployed_on: c.deployedAt?.toISOString() ?? null,
      size: c.size as ClusterSize,
      query_engines: c.queryEngines,
      resizing_to: c.resizeToSize ? { size: c.resizeToSize as ClusterSize, query_engines: c.resizeToEngines! } : null,
    };
  }

  /** The nodes as deployed (the fixed layout) or, for CURRENT, as the cloud last reported them. */
  function nodesFor(view: ClusterView, detail: ClusterDetailKind): ClusterDetailsResponse['nodes'] {
    if (detail !== 'DEPLOYMENT') {
      return view.cluster.nodes.map((node) => ({
        host: node.host,
        node_status: node.nodeStatus,
        service_name: node.serviceName,
        status: node.serviceStatus,
        instance_type: node.instanceType,
        core: node.core,
      }));
    }
    // The query engines are those of the cluster's size, as many as it runs.
    const engines = sizeSpecOf(view.cluster.size as ClusterSize);
    return NODE_LAYOUT.flatMap((role) => {
      const isEngine = role.role === 'QUERY_ENGINES';
      return Array.from({ length: isEngine ? view.cluster.queryEngines : role.nodeCount }, (_, i) => ({
        host: `${role.hostPrefix}-${i + 1}`,
        node_status: view.cluster.deployedAt ? 'Running' : 'Pending',
        service_name: role.serviceName,
        status: view.cluster.deployedAt ? 'Online' : 'Offline',
        instance_type: isEngine ? engines.instance_type : role.instanceType,
        core: isEngine ? engines.cores : role.coresPerNode,
      }));
    });
  }

  return {
    // The reads below are what a console polls: one query each, no lock and no cloud call. The jobs keep the rows
    // fresh (reconcile.ts).
    async view(accountId: string, subscriptionId?: string): Promise<ClusterViewResponse> {
      const rows = await repository.subscriptionsWithClusters(accountId, subscriptionId);
      // Another account's subscription is as unknown as one that never existed.
      if (subscriptionId && rows.length === 0) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
      return rows.map((row) => ({
        subscription_id: row.subscriptionId,
        subscription_name: row.subscriptionName,
        clusters: row.clusters.map((listed) =>
          present({
            cluster: listed.cluster,
            subscriptionName: row.subscriptionName,
            subscriptionBalanceCents: row.subscriptionBalanceCents,
            creatorName: listed.creatorName ?? '',
            creatorEmail: listed.creatorEmail ?? '',
          }),
        ),
      }));
    },

    async status(caller: Caller, id: string): Promise<DeploymentStatusResponse> {
      const c = (await requireCluster(caller, id, { includeDeleted: true })).cluster;
      return {
        status: c.status as ClusterStatus,
        cluster_capacity: c.capacity,
        cluster_stack_status: (c.stackStatus as StackStatus | null) ?? null,
        kumo_cluster_deployment_status: (c.deploymentStatus as DeploymentStatus | null) ?? null,
        created_at: c.createdAt.toISOString(),
        completed_at: c.deployedAt?.toISOString() ?? (c.status === 'FAILED' ? c.statusUpdatedAt.toISOString() : null),
      };
    },

    async details(caller: Caller, id: string, detail: ClusterDetailKind): Promise<ClusterDetailsResponse> {
      const view = await requireCluster(caller, id);
      const engines = sizeSpecOf(view.cluster.size as ClusterSize);
      const configurations = NODE_LAYOUT.map((role) =>
        role.role === 'QUERY_ENGINES'
          ? { service_name: role.label, node_count: view.cluster.queryEngines, instance_type: engines.instance_type, core: engines.cores }
          : { service_name: role.label, node_count: role.nodeCount, instance_type: role.instanceType, core: role.coresPerNode },
      );
      return {
        ...present(view),
        detail,
        cluster_configurations: configurations,
        nodes: nodesFor(view, detail),
        sql_endpoint: deps.sqlEndpointOf(view.cluster),
        sql_user: CLUSTER_SQL_USER,
      };
    },
  };
}

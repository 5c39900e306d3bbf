/** How clusters are shown: the list per subscription, one cluster's status and its details with the nodes. */
import {
  centsToAmount,
  type Cluster,
  type ClusterDetailKind,
  type ClusterDetailsResponse,
  type ClusterStatus,
  type ClusterViewResponse,
  type DeploymentStatus,
  type DeploymentStatusResponse,
  type StackStatus,
} from '@kumo/contract';
import { CLUSTER_LINK_TICKET_SECONDS, NODE_LAYOUT, withManagerTicket } from '../../adapters/cloud/index.js';
import type { Clock } from '../../clock.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import type { Caller, ClusterRecords } from './cluster-records.js';
import type { ClusterRow, ClusterView, ClustersRepository } from './clusters.repository.js';

export function createClusterPresentation(deps: {
  repository: ClustersRepository;
  subscriptions: Pick<SubscriptionsService, 'requireOwned'>;
  records: Pick<ClusterRecords, 'requireCluster'>;
  clock: Clock;
  secret: string;
  /** Brings busy clusters up to date before they are shown; true when it looked at any. */
  refresh: (views: ClusterView[]) => Promise<boolean>;
}) {
  const { repository: repo, subscriptions, clock, secret, refresh } = deps;
  const { requireCluster } = deps.records;

  /** A Kumo Manager or Web Portal address with the single-sign-on ticket the cluster's pages require. */
  function ticketed(c: ClusterRow, url: string | null): string | null {
    if (!url || c.status !== 'ONLINE') return null;
    const expiresAt = new Date(clock.now().getTime() + CLUSTER_LINK_TICKET_SECONDS * 1000);
    return withManagerTicket(url, secret, { deploymentId: c.id, holder: c.accountId, expiresAt });
  }

  function present(view: ClusterView): Cluster {
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
      kumo_manager_url: ticketed(c, c.managerUrl),
      kumo_url: ticketed(c, c.portalUrl),
      cluster_stack_status: (c.stackStatus as StackStatus | null) ?? null,
      kumo_cluster_deployment_status: (c.deploymentStatus as DeploymentStatus | null) ?? null,
      created_at: c.createdAt.toISOString(),
      deployed_on: c.deployedAt?.toISOString() ?? null,
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
    return NODE_LAYOUT.flatMap((role) =>
      Array.from({ length: role.nodeCount }, (_, i) => ({
        host: `${role.hostPrefix}-${i + 1}`,
        node_status: view.cluster.deployedAt ? 'Running' : 'Pending',
        service_name: role.serviceName,
        status: view.cluster.deployedAt ? 'Online' : 'Offline',
        instance_type: role.instanceType,
        core: role.coresPerNode,
      })),
    );
  }

  return {
    async view(accountId: string, subscriptionId?: string): Promise<ClusterViewResponse> {
      if (subscriptionId) await subscriptions.requireOwned(accountId, subscriptionId);
      let views = await repo.listForAccount(accountId, subscriptionId);
      if (await refresh(views)) views = await repo.listForAccount(accountId, subscriptionId);
      const groups = (await repo.subscriptionsOf(accountId)).filter((s) => !subscriptionId || s.id === subscriptionId);
      return groups.map((s) => ({
        subscription_id: s.id,
        subscription_name: s.name,
        clusters: views.filter((view) => view.cluster.subscriptionId === s.id).map(present),
      }));
    },

    async status(caller: Caller, id: string): Promise<DeploymentStatusResponse> {
      let view = await requireCluster(caller, id, { includeDeleted: true });
      if (await refresh([view])) view = await requireCluster(caller, id, { includeDeleted: true });
      const c = view.cluster;
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
      let view = await requireCluster(caller, id);
      if (await refresh([view])) view = await requireCluster(caller, id);
      const configurations = NODE_LAYOUT.map((role) => ({
        service_name: role.label,
        node_count: role.nodeCount,
        instance_type: role.instanceType,
        core: role.coresPerNode,
      }));
      return { ...present(view), detail, cluster_configurations: configurations, nodes: nodesFor(view, detail) };
    },
  };
}

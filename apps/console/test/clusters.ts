import type { AutoStopResponse, Cluster, ClusterDetailsResponse, ClusterViewResponse, DeploymentStatusResponse } from '@kumo/contract';

export const SUBSCRIPTION_ID = '5f0c2d1e-7a6b-4c3d-8e9f-0a1b2c3d4e5f';
export const OTHER_SUBSCRIPTION_ID = '6a1d3e2f-8b7c-4d5e-9f0a-1b2c3d4e5f60';

let counter = 0;

/** A cluster as GET /api/cluster/view lists it; online with full capacity unless overridden. */
export function cluster(overrides: Partial<Cluster> = {}): Cluster {
  counter += 1;
  const status = overrides.status ?? 'ONLINE';
  return {
    deployment_id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    cluster_id: `kc-${counter}`,
    cluster_name: `Cluster-${counter}`,
    cluster_description: 'Reporting',
    status,
    cluster_status: status,
    status_update_date: '2026-11-01T09:00:00.000Z',
    cluster_capacity: status === 'ONLINE' ? 5 : 0,
    region: 'us-east-1',
    deployment_region: 'us-east-1',
    cloud_provider: 'AWS',
    backup_region: null,
    cidr: '10.0.0.0/16',
    kumo_version: '2026.10.1',
    stack_name: `kumo-${counter}`,
    deployed_by: 'Ada Lovelace',
    email_id: 'ada@example.com',
    subscription_id: SUBSCRIPTION_ID,
    subscription_name: 'Analytics',
    subscription_balance: 500,
    kumo_manager_url: status === 'ONLINE' ? 'https://km.example/1' : null,
    kumo_url: status === 'ONLINE' ? 'https://portal.example/1' : null,
    cluster_stack_status: status === 'DEPLOYING' ? 'CREATE_IN_PROGRESS' : status === 'FAILED' ? 'ROLLBACK_COMPLETE' : 'CREATE_COMPLETE',
    kumo_cluster_deployment_status: status === 'DEPLOYING' || status === 'FAILED' ? null : 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
    created_at: '2026-11-01T08:00:00.000Z',
    deployed_on: status === 'DEPLOYING' || status === 'FAILED' ? null : '2026-11-01T09:00:00.000Z',
    size: 'M',
    query_engines: 5,
    resizing_to: null,
    ...overrides,
  };
}

/** The view grouped by subscription, as the API answers it. */
export function view(...clusters: Cluster[]): ClusterViewResponse {
  const ids = [...new Set(clusters.map((c) => c.subscription_id))];
  return ids.map((id) => ({
    subscription_id: id,
    subscription_name: clusters.find((c) => c.subscription_id === id)!.subscription_name,
    clusters: clusters.filter((c) => c.subscription_id === id),
  }));
}

export function statusOf(c: Cluster, overrides: Partial<DeploymentStatusResponse> = {}): DeploymentStatusResponse {
  return {
    status: c.status,
    cluster_capacity: c.cluster_capacity,
    cluster_stack_status: c.cluster_stack_status,
    kumo_cluster_deployment_status: c.kumo_cluster_deployment_status,
    created_at: c.created_at,
    completed_at: c.deployed_on,
    ...overrides,
  };
}

export function detailsOf(c: Cluster, detail: 'DEPLOYMENT' | 'CURRENT' = 'DEPLOYMENT'): ClusterDetailsResponse {
  return {
    ...c,
    detail,
    cluster_configurations: [{ service_name: 'Query Engine', node_count: 5, instance_type: 'r6i.2xlarge', core: 8 }],
    nodes: [
      { host: 'qe-1', node_status: 'Running', service_name: 'Query Engine', status: 'Online', instance_type: 'r6i.2xlarge', core: 8 },
    ],
    sql_endpoint: `http://localhost/sim/kumo/${c.stack_name}/sql`,
    sql_user: 'kumo_admin',
  };
}

/** A cluster's auto-stop as the API answers it: off, nothing seen yet. */
export function autoStopOf(c: Cluster): AutoStopResponse {
  return {
    deployment_id: c.deployment_id,
    idle_minutes: null,
    restart_when_funded: false,
    last_activity_at: null,
    stops_at: null,
    wake_sources: [],
    saved_this_month: 0,
  };
}

/** What PUT /api/cluster/auto-stop answers for a new cluster given `body` (the create form's choice). */
export function autoStopSaved(deploymentId: string, body: unknown): AutoStopResponse {
  const request = body as { idle_minutes: number | null; restart_when_funded?: boolean };
  return { ...autoStopOf({ deployment_id: deploymentId } as Cluster), idle_minutes: request.idle_minutes };
}

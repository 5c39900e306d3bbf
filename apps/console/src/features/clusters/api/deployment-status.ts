import { useQuery } from '@tanstack/react-query';
import { POLLED_CLUSTER_STATUSES, UI_TIMING, type DeploymentStatusResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchDeploymentStatus(deploymentId: string, signal?: AbortSignal): Promise<DeploymentStatusResponse> {
  return api.get(`/api/cluster/deployment-details/status/${encodeURIComponent(deploymentId)}`, { signal });
}

/**
 * Whether a status reading calls for another in 15 seconds (spec section 4): a deployment until it
 * completes or fails; a start or stop until ONLINE or OFFLINE; a deletion until the cluster is gone.
 */
export function keepPolling(reading: DeploymentStatusResponse | undefined): boolean {
  if (!reading) return false;
  if (reading.status === 'DEPLOYING') return reading.kumo_cluster_deployment_status !== 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE';
  return POLLED_CLUSTER_STATUSES.includes(reading.status);
}

/** The selected cluster's status, stack and deployment statuses and capacity, polled while it moves. */
export function useDeploymentStatus(deploymentId: string | undefined) {
  return useQuery({
    queryKey: clusterKeys.status(deploymentId ?? ''),
    queryFn: ({ signal }) => fetchDeploymentStatus(deploymentId!, signal),
    enabled: !!deploymentId,
    refetchInterval: (query) => (keepPolling(query.state.data) ? UI_TIMING.pollingMs : false),
  });
}

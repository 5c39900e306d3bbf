import { useQuery } from '../../../lib/use-query';
import { MESSAGES, POLLED_CLUSTER_STATUSES, UI_TIMING, type DeploymentStatusResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
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

/** Failed readings in a row after which the poll stops (spec section 4: it "stops once a counter reaches 3"). */
export const STATUS_POLL_FAILURE_LIMIT = 3;

/** When to read the status again: in 15 seconds while the cluster moves, never once its readings have failed too often. */
export function nextStatusReading(reading: DeploymentStatusResponse | undefined, failuresInARow: number): number | false {
  if (failuresInARow >= STATUS_POLL_FAILURE_LIMIT) return false;
  return keepPolling(reading) ? UI_TIMING.pollingMs : false;
}

/** What a failed reading says: the server's own message, else the spec's default for a status poll. */
export function statusPollError(error: unknown): string {
  if (error instanceof ApiError && error.body) return error.message;
  if (error instanceof ApiError && error.status === undefined) return MESSAGES.noResponse;
  return MESSAGES.internal;
}

/** The selected cluster's status, stack and deployment statuses and capacity, polled while it moves. */
export function useDeploymentStatus(deploymentId: string | undefined) {
  return useQuery({
    queryKey: clusterKeys.status(deploymentId ?? ''),
    queryFn: ({ signal }) => fetchDeploymentStatus(deploymentId!, signal),
    enabled: !!deploymentId,
    // A failed reading is tried again on the poll's own 15-second beat, up to the limit; then the poll stops.
    // (`retry` is asked after each failure with the number of failures before it.)
    retry: (earlierFailures) => earlierFailures + 1 < STATUS_POLL_FAILURE_LIMIT,
    retryDelay: UI_TIMING.pollingMs,
    refetchInterval: (query) => nextStatusReading(query.state.data, query.state.fetchFailureCount),
  });
}

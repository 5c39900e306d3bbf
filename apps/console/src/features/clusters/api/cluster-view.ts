import { queryOptions } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import { POLLED_CLUSTER_STATUSES, UI_TIMING, isClusterGone, type ClusterViewResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchClusterView(signal?: AbortSignal): Promise<ClusterViewResponse> {
  return api.get('/api/cluster/view', { signal });
}

/** Deleted clusters leave the list, and so do subscriptions left without clusters (spec section 4). */
export function visibleClusterGroups(view: ClusterViewResponse): ClusterViewResponse {
  return view
    .map((group) => ({ ...group, clusters: group.clusters.filter((cluster) => !isClusterGone(cluster.status)) }))
    .filter((group) => group.clusters.length > 0);
}

/** Whether any cluster is on its way somewhere: the list is then read again every 15 seconds. */
export function hasMovingCluster(view: ClusterViewResponse | undefined): boolean {
  return !!view?.some((group) => group.clusters.some((cluster) => POLLED_CLUSTER_STATUSES.includes(cluster.status)));
}

/**
 * The account's clusters grouped by subscription, shared by the clusters page and home. While a
 * cluster deploys, starts, stops or is deleted the list polls every 15 seconds and stops once all settle.
 */
export const clusterViewQuery = queryOptions({ queryKey: clusterKeys.view(), queryFn: ({ signal }) => fetchClusterView(signal) });

export function useClusterView() {
  return useQuery({
    ...clusterViewQuery,
    select: visibleClusterGroups,
    refetchInterval: (query) => (hasMovingCluster(query.state.data) ? UI_TIMING.pollingMs : false),
  });
}

import { useQuery } from '../../../lib/use-query';
import type { ClusterDetailKind, ClusterDetailsResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchClusterDetails(
  deploymentId: string,
  detail: ClusterDetailKind,
  signal?: AbortSignal,
): Promise<ClusterDetailsResponse> {
  return api.get(`/api/cluster/details/${encodeURIComponent(deploymentId)}`, { query: { detail }, signal });
}

/** DEPLOYMENT: the settings the cluster was deployed with and its configuration; CURRENT: its nodes as they are now. */
export function useClusterDetails(
  deploymentId: string | undefined,
  detail: ClusterDetailKind,
  options: { enabled?: boolean; refetchInterval?: number | false } = {},
) {
  return useQuery({
    queryKey: clusterKeys.details(deploymentId ?? '', detail),
    queryFn: ({ signal }) => fetchClusterDetails(deploymentId!, detail, signal),
    enabled: !!deploymentId && (options.enabled ?? true),
    refetchInterval: options.refetchInterval ?? false,
  });
}

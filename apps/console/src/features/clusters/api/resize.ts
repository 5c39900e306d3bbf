import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { ClusterSize, ResizeResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

/** The sizes of the query engines, smallest first. */
export function useClusterSizes() {
  return useQuery({
    queryKey: clusterKeys.sizes(),
    queryFn: ({ signal }) => api.get('/api/cluster/sizes', { signal }),
    staleTime: Infinity,
  });
}

/** The cluster's hourly cost and runway at its shape and at the one proposed (the last figures stay while the next load). */
export function useResizePreview(deploymentId: string, size: ClusterSize, queryEngines: number, enabled: boolean) {
  return useQuery({
    queryKey: clusterKeys.resizePreview(deploymentId, size, queryEngines),
    queryFn: ({ signal }) =>
      api.get(`/api/cluster/resize-preview/${encodeURIComponent(deploymentId)}`, {
        query: { size, query_engines: String(queryEngines) },
        signal,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** A new cluster's price and the runway after, for the create form. */
export function usePricePreview(subscriptionId: string | undefined, size: ClusterSize, queryEngines: number) {
  return useQuery({
    queryKey: clusterKeys.pricePreview(subscriptionId ?? '', size, queryEngines),
    queryFn: ({ signal }) =>
      api.get('/api/cluster/price-preview', {
        query: { subscription_id: subscriptionId!, size, query_engines: String(queryEngines) },
        signal,
      }),
    enabled: Boolean(subscriptionId),
    placeholderData: keepPreviousData,
  });
}

/** Resize: the list and the cluster's readings refresh, which starts following the engines as they move. */
export function useResizeCluster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      deploymentId,
      size,
      queryEngines,
    }: {
      deploymentId: string;
      size: ClusterSize;
      queryEngines: number;
    }): Promise<ResizeResponse> =>
      api.post(`/api/cluster/resize/${encodeURIComponent(deploymentId)}`, { size, query_engines: queryEngines }),
    onSuccess: (_result, { deploymentId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: clusterKeys.view() }),
        queryClient.invalidateQueries({ queryKey: clusterKeys.cluster(deploymentId) }),
      ]),
  });
}

import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { AutoStopResponse, PutAutoStopRequest } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchAutoStop(deploymentId: string, signal?: AbortSignal): Promise<AutoStopResponse> {
  return api.get(`/api/cluster/auto-stop/${encodeURIComponent(deploymentId)}`, { signal });
}

export function saveAutoStop(deploymentId: string, request: PutAutoStopRequest): Promise<AutoStopResponse> {
  return api.put(`/api/cluster/auto-stop/${encodeURIComponent(deploymentId)}`, request);
}

/** The cluster's auto-stop, read again each minute: when it stops moves with every query, and the sources with it. */
export const autoStopQuery = (deploymentId: string) =>
  queryOptions({
    queryKey: clusterKeys.autoStop(deploymentId),
    queryFn: ({ signal }) => fetchAutoStop(deploymentId, signal),
    refetchInterval: 60_000,
  });

export function useAutoStop(deploymentId: string) {
  return useQuery(autoStopQuery(deploymentId));
}

export function useSaveAutoStop(deploymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: PutAutoStopRequest) => saveAutoStop(deploymentId, request),
    onSuccess: (saved) => queryClient.setQueryData(clusterKeys.autoStop(deploymentId), saved),
  });
}

/** The create form's choice, saved on the new cluster as soon as it exists. */
export function useSaveNewClusterAutoStop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ deploymentId, request }: { deploymentId: string; request: PutAutoStopRequest }) => saveAutoStop(deploymentId, request),
    onSuccess: (saved) => queryClient.setQueryData(clusterKeys.autoStop(saved.deployment_id), saved),
  });
}

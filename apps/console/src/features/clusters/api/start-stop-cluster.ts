import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClusterActionResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

// The API answers GET as the specification writes it and POST; POST carries the XSRF token.
export function startCluster(deploymentId: string): Promise<ClusterActionResponse> {
  return api.post(`/api/cluster/start/${encodeURIComponent(deploymentId)}`);
}

export function stopCluster(deploymentId: string): Promise<ClusterActionResponse> {
  return api.post(`/api/cluster/stop/${encodeURIComponent(deploymentId)}`);
}

/** Start or stop: on an answer the list and that cluster's readings refresh, which starts their polling. */
export function useClusterPower() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ deploymentId, action }: { deploymentId: string; action: 'start' | 'stop' }) =>
      action === 'start' ? startCluster(deploymentId) : stopCluster(deploymentId),
    onSuccess: (_result, { deploymentId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: clusterKeys.view() }),
        queryClient.invalidateQueries({ queryKey: clusterKeys.cluster(deploymentId) }),
      ]),
  });
}

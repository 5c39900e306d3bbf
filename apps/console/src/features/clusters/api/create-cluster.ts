import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateClusterRequest, CreateClusterResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function createCluster(request: CreateClusterRequest): Promise<CreateClusterResponse> {
  return api.post('/api/cluster/create', request);
}

/** Deploys a cluster; the list gains it, and the next CIDR suggestion must skip its block. */
export function useCreateCluster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCluster,
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: [...clusterKeys.all, 'cidr'] });
      await queryClient.invalidateQueries({ queryKey: clusterKeys.view() });
    },
  });
}

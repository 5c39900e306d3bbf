import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { ManagerAccessResponse, PutManagerAccessRequest } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

const path = (deploymentId: string) => `/api/cluster/manager-access/${encodeURIComponent(deploymentId)}` as const;

/** Every person of the account with their level in the cluster's Kumo Manager, and the signed-in person's own. */
export function useManagerAccess(deploymentId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: clusterKeys.managerAccess(deploymentId),
    queryFn: ({ signal }): Promise<ManagerAccessResponse> => api.get(path(deploymentId), { signal }),
    enabled: options.enabled ?? true,
  });
}

/** Saving writes an audit entry too, so the cluster's log refreshes with the levels. */
export function useSaveManagerAccess(deploymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: PutManagerAccessRequest): Promise<ManagerAccessResponse> => api.put(path(deploymentId), request),
    onSuccess: async (saved) => {
      queryClient.setQueryData(clusterKeys.managerAccess(deploymentId), saved);
      await queryClient.invalidateQueries({ queryKey: clusterKeys.auditLogs(deploymentId) });
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { ClientAddressResponse, NetworkAccessRequest, NetworkAccessResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

const path = (deploymentId: string) => `/api/cluster/network-access/${encodeURIComponent(deploymentId)}` as const;

/** Who may reach the cluster: anywhere, or the addresses and ranges listed. */
export function useNetworkAccess(deploymentId: string) {
  return useQuery({
    queryKey: clusterKeys.networkAccess(deploymentId),
    queryFn: ({ signal }): Promise<NetworkAccessResponse> => api.get(path(deploymentId), { signal }),
  });
}

/** Saving writes an audit entry too, so the cluster's log refreshes with the list. */
export function useSaveNetworkAccess(deploymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: NetworkAccessRequest): Promise<NetworkAccessResponse> => api.put(path(deploymentId), request),
    onSuccess: async (saved) => {
      queryClient.setQueryData(clusterKeys.networkAccess(deploymentId), saved);
      await queryClient.invalidateQueries({ queryKey: clusterKeys.auditLogs(deploymentId) });
    },
  });
}

/** The signed-in person's address as the portal sees it; asked only when a screen offers to add it. */
export function useClientAddress(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: clusterKeys.clientAddress(),
    queryFn: ({ signal }): Promise<ClientAddressResponse> => api.get('/api/user/client-address', { signal }),
    enabled: options.enabled ?? true,
    staleTime: 60_000,
  });
}

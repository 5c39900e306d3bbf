import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { clusterKeys } from './keys';

/** Reads the list and one cluster's details and audit log again, once its status reading has moved on. */
export function useRefreshCluster() {
  const queryClient = useQueryClient();
  return useCallback(
    (deploymentId: string) => {
      void queryClient.invalidateQueries({ queryKey: clusterKeys.view() });
      void queryClient.invalidateQueries({ queryKey: clusterKeys.details(deploymentId, 'CURRENT') });
      void queryClient.invalidateQueries({ queryKey: clusterKeys.details(deploymentId, 'DEPLOYMENT') });
      void queryClient.invalidateQueries({ queryKey: clusterKeys.auditLogs(deploymentId) });
    },
    [queryClient],
  );
}

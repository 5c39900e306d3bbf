import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import { CLUSTER_SQL_LIMITS, type ClusterQueriesResponse, type SqlResult } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

/** Runs a query on the cluster; the history refreshes with it (a refused query is in it too). */
export function useRunQuery(deploymentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (query: string): Promise<SqlResult> => api.post(`/api/cluster/query/${encodeURIComponent(deploymentId)}`, { query }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: clusterKeys.queries(deploymentId) }),
  });
}

/** One page of the cluster's queries, newest first. */
export function useQueryHistory(deploymentId: string, page: number) {
  return useQuery({
    queryKey: clusterKeys.queriesPage(deploymentId, page),
    queryFn: ({ signal }): Promise<ClusterQueriesResponse> =>
      api.get(`/api/cluster/queries/${encodeURIComponent(deploymentId)}`, {
        query: { page, size: CLUSTER_SQL_LIMITS.historyPageSize },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

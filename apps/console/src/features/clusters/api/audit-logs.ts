import { useInfiniteQuery } from '../../../lib/use-query';
import { PAGE_SIZES, type AuditLogResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchAuditLogs(deploymentId: string, startDate: string, page: number, signal?: AbortSignal): Promise<AuditLogResponse> {
  return api.get(`/api/cluster/get-audit-logs/${encodeURIComponent(deploymentId)}`, {
    query: { page, size: PAGE_SIZES.auditLogs, startDate },
    signal,
  });
}

/** One month of a cluster's audit log, 20 entries a page. */
export function useAuditLogs(deploymentId: string, startDate: string) {
  return useInfiniteQuery({
    queryKey: clusterKeys.auditLogs(deploymentId, startDate),
    queryFn: ({ pageParam, signal }) => fetchAuditLogs(deploymentId, startDate, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageParam) =>
      lastPageParam + 1 < lastPage.page_content.totalPages ? lastPageParam + 1 : undefined,
  });
}

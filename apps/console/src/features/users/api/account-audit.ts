import { useInfiniteQuery } from '@tanstack/react-query';
import { PAGE_SIZES, type AccountAuditResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { usersKeys } from './keys';

export function fetchAccountAudit(startDate: string, page: number, signal?: AbortSignal): Promise<AccountAuditResponse> {
  return api.get('/api/account/audit-logs', { query: { page, size: PAGE_SIZES.auditLogs, startDate }, signal });
}

/** One month of the account's audit trail (staff viewing its console), 20 entries a page. */
export function useAccountAudit(startDate: string) {
  return useInfiniteQuery({
    queryKey: usersKeys.auditLogs(startDate),
    queryFn: ({ pageParam, signal }) => fetchAccountAudit(startDate, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageParam) =>
      lastPageParam + 1 < lastPage.page_content.totalPages ? lastPageParam + 1 : undefined,
  });
}

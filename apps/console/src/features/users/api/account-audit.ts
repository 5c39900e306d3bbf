import { infiniteQueryOptions, useMutation } from '@tanstack/react-query';
import { useInfiniteQuery } from '../../../lib/use-query';
import { notifyError } from '../../../components/notify';
import { downloadFile } from '../../../lib/download-file';
import { PAGE_SIZES, type AccountAuditResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { usersKeys } from './keys';

export function fetchAccountAudit(startDate: string, page: number, signal?: AbortSignal): Promise<AccountAuditResponse> {
  return api.get('/api/account/audit-logs', { query: { page, size: PAGE_SIZES.auditLogs, startDate }, signal });
}

/** One month of the account's audit trail (staff viewing its console), 20 entries a page. */
export const accountAuditQuery = (startDate: string) =>
  infiniteQueryOptions({
    queryKey: usersKeys.auditLogs(startDate),
    queryFn: ({ pageParam, signal }) => fetchAccountAudit(startDate, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageParam) =>
      lastPageParam + 1 < lastPage.page_content.totalPages ? lastPageParam + 1 : undefined,
  });

export function useAccountAudit(startDate: string) {
  return useInfiniteQuery(accountAuditQuery(startDate));
}

/** Downloads the month of the account's trail (cluster and staff actions) as CSV or JSON; a failure is a notification. */
export function useAccountAuditDownload(startDate: string) {
  return useMutation({
    mutationFn: (format: 'csv' | 'json') =>
      downloadFile('/api/account/audit-logs/export', { startDate, format }, `account-audit-${startDate.slice(0, 7)}.${format}`),
    onError: (error) => notifyError(error),
  });
}

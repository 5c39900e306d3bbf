import { useQuery } from '../../../lib/use-query';
import { api } from '../../../lib/api-client';
import { reportKeys } from './keys';

/** The address of the report, behind a short-lived report session opened for this visit. */
export function useReportUrl() {
  return useQuery({
    queryKey: reportKeys.url(),
    queryFn: ({ signal }) => api.get('/api/user/report-url', { signal }),
    // Each visit gets its own report session; an address is not reused once the page is left.
    gcTime: 0,
    staleTime: Infinity,
  });
}

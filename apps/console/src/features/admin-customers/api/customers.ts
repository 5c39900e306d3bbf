import { PAGE_SIZES, type CustomerPage } from '@kumo/contract';
import { keepPreviousData } from '@tanstack/react-query';
import { useInfiniteQuery } from '../../../lib/use-query';
import { api } from '../../../lib/api-client';
import { customerKeys } from './keys';

/** One page of 50 customers; `search` (part of an e-mail or a name) is matched on the server. */
export function fetchCustomers(page: number, search: string, signal?: AbortSignal): Promise<CustomerPage> {
  const query = search ? { page, size: PAGE_SIZES.customers, search } : { page, size: PAGE_SIZES.customers };
  return api.get('/api/admin/users', { query, signal });
}

export function useCustomers({ enabled = true, search = '' }: { enabled?: boolean; search?: string } = {}) {
  return useInfiniteQuery({
    queryKey: customerKeys.list(search),
    queryFn: ({ pageParam, signal }) => fetchCustomers(pageParam, search, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPageParam + 1 < lastPage.totalPages ? lastPageParam + 1 : undefined),
    // While a new search runs, the list keeps showing the last answer instead of a loader.
    placeholderData: keepPreviousData,
    enabled,
  });
}

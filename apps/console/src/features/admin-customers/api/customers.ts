import { PAGE_SIZES, type CustomerPage } from '@kumo/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { customerKeys } from './keys';

export const customersQueryKey = customerKeys.list();

export function fetchCustomers(page: number, signal?: AbortSignal): Promise<CustomerPage> {
  return api.get('/api/admin/users', { query: { page, size: PAGE_SIZES.customers }, signal });
}

export function useCustomers({ enabled = true }: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: customersQueryKey,
    queryFn: ({ pageParam, signal }) => fetchCustomers(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPageParam + 1 < lastPage.totalPages ? lastPageParam + 1 : undefined),
    enabled,
  });
}

import { PAGE_SIZES } from '@kumo/contract';
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useInfiniteQuery, useQuery } from '../../../lib/use-query';
import { api } from '../../../lib/api-client';
import { customerKeys } from './keys';

/** Header, overview and added users of one customer. */
export function useCustomerDetail(userId: string | undefined, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: customerKeys.detail(userId ?? ''),
    queryFn: ({ signal }) => api.get(`/api/admin/users/${userId}`, { signal }),
    enabled: enabled && !!userId,
  });
}

/**
 * The header's total balance sums the balances a tab shows: when the tab reads them afresh (opened again, polled,
 * after an action), a header read before that is refreshed too, so the two never disagree on screen.
 */
export function useHeaderFollows(userId: string, balancesReadAt: number) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!balancesReadAt) return;
    const header = queryClient.getQueryState(customerKeys.detail(userId));
    if (header && header.dataUpdatedAt < balancesReadAt)
      void queryClient.invalidateQueries({ queryKey: customerKeys.detail(userId), exact: true });
  }, [queryClient, userId, balancesReadAt]);
}

interface Paged<T> {
  content: T[];
  totalPages: number;
}

/** A list of 20 a page, the next page asked for when the list is scrolled to its end (spec section 4). */
export function useAdminPages<P extends Paged<unknown>>(
  queryKey: readonly unknown[],
  fetchPage: (page: number, size: number, signal: AbortSignal) => Promise<P>,
  enabled = true,
) {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, PAGE_SIZES.adminLists, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPageParam + 1 < lastPage.totalPages ? lastPageParam + 1 : undefined),
    enabled,
  });
  const items: P['content'] = query.data?.pages.flatMap((page) => page.content) ?? [];
  const loadMore = () => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  };
  return { query, items, loadMore };
}

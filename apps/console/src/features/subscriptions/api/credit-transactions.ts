import { useInfiniteQuery } from '@tanstack/react-query';
import { PAGE_SIZES, type TransactionPage } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

export function fetchCreditTransactions(subscriptionId: string, page: number, signal?: AbortSignal): Promise<TransactionPage> {
  return api.get(`/api/credit/view/credit-transactions/${encodeURIComponent(subscriptionId)}`, {
    query: { page, size: PAGE_SIZES.transactions },
    signal,
  });
}

/** The subscription's transactions, newest first, 20 a page. */
export function useCreditTransactions(subscriptionId: string) {
  return useInfiniteQuery({
    queryKey: subscriptionKeys.transactions(subscriptionId),
    queryFn: ({ pageParam, signal }) => fetchCreditTransactions(subscriptionId, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPageParam + 1 < lastPage.totalPages ? lastPageParam + 1 : undefined),
  });
}

import { useInfiniteQuery } from '../../../lib/use-query';
import { PAGE_SIZES, type TransactionKind, type TransactionPage } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

export function fetchCreditTransactions(
  subscriptionId: string,
  page: number,
  kind: TransactionKind | null,
  signal?: AbortSignal,
): Promise<TransactionPage> {
  return api.get(`/api/credit/view/credit-transactions/${encodeURIComponent(subscriptionId)}`, {
    query: { page, size: PAGE_SIZES.transactions, ...(kind ? { kind } : {}) },
    signal,
  });
}

/** The subscription's transactions, newest first, 20 a page; of one kind when `kind` is set (filtered by the server). */
export function useCreditTransactions(subscriptionId: string, kind: TransactionKind | null = null) {
  return useInfiniteQuery({
    queryKey: subscriptionKeys.transactionsOfKind(subscriptionId, kind),
    queryFn: ({ pageParam, signal }) => fetchCreditTransactions(subscriptionId, pageParam, kind, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPageParam + 1 < lastPage.totalPages ? lastPageParam + 1 : undefined),
  });
}

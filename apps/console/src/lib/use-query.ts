import { startTransition, useEffect, useReducer, useRef, useState } from 'react';
import {
  InfiniteQueryObserver,
  QueryObserver,
  notifyManager,
  useQueryClient,
  type DefaultError,
  type InfiniteData,
  type QueryKey,
  type QueryObserverResult,
  type UseInfiniteQueryOptions,
  type UseInfiniteQueryResult,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';

/**
 * The console's useQuery and useInfiniteQuery: TanStack Query's, except that an answer re-renders its readers as a
 * low-priority update (a transition), which React splits into short tasks. TanStack's own hooks read the cache through
 * useSyncExternalStore, whose updates are always urgent: each answer arriving while a page loads rebuilt the page in one
 * long task, the phone's main thread blocked meanwhile. Typing, clicks and the rest stay urgent; a transition only
 * lets them in between (decision 0052).
 */
export function useQuery<TQueryFnData = unknown, TError = DefaultError, TData = TQueryFnData, TQueryKey extends QueryKey = QueryKey>(
  options: UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>,
): UseQueryResult<TData, TError> {
  return useObservedQuery(options, QueryObserver) as UseQueryResult<TData, TError>;
}

export function useInfiniteQuery<
  TQueryFnData,
  TError = DefaultError,
  TData = InfiniteData<TQueryFnData>,
  TQueryKey extends QueryKey = QueryKey,
  TPageParam = unknown,
>(options: UseInfiniteQueryOptions<TQueryFnData, TError, TData, TQueryKey, TPageParam>): UseInfiniteQueryResult<TData, TError> {
  return useObservedQuery(options, InfiniteQueryObserver as typeof QueryObserver) as UseInfiniteQueryResult<TData, TError>;
}

type AnyOptions = Parameters<ReturnType<typeof useQueryClient>['defaultQueryOptions']>[0];

/** TanStack's useBaseQuery (no suspense, no error boundaries: the console uses neither), subscribed through a transition. */
function useObservedQuery(options: object, Observer: typeof QueryObserver): QueryObserverResult<unknown, unknown> {
  const client = useQueryClient();
  const defaulted = client.defaultQueryOptions(options as AnyOptions);
  defaulted._optimisticResults = 'optimistic';
  const [observer] = useState(() => new Observer(client, defaulted));
  const [, rerender] = useReducer((renders: number) => renders + 1, 0);
  const result = observer.getOptimisticResult(defaulted);
  // The cache's result this render saw: one that changed before the subscription below re-renders once more.
  const snapshot = observer.getCurrentResult();
  const seen = useRef(snapshot);
  useEffect(() => {
    seen.current = snapshot;
  });
  useEffect(() => {
    observer.setOptions(defaulted);
  }, [defaulted, observer]);
  useEffect(() => {
    const update = () => startTransition(rerender);
    const unsubscribe = observer.subscribe(notifyManager.batchCalls(update));
    observer.updateResult();
    if (observer.getCurrentResult() !== seen.current) update();
    return unsubscribe;
  }, [observer]);
  return defaulted.notifyOnChangeProps ? result : observer.trackResult(result);
}

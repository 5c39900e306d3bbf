import { useCallback } from 'react';
import type { UIEvent } from 'react';

/** Lists load their next page when scrolled to within this distance of the bottom (spec section 9). */
export const LOAD_MORE_THRESHOLD_PX = 1;

export function isNearBottom(
  element: Pick<HTMLElement, 'scrollHeight' | 'scrollTop' | 'clientHeight'>,
  threshold = LOAD_MORE_THRESHOLD_PX,
): boolean {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= threshold;
}

/** An onScroll handler that asks for the next page at the bottom, while pages remain and none is loading. */
export function useLoadMoreOnScroll(query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  return useCallback(
    (event: UIEvent<HTMLElement>) => {
      if (hasNextPage && !isFetchingNextPage && isNearBottom(event.currentTarget)) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );
}

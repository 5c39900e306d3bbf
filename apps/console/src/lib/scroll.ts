import { useCallback, useEffect, useState } from 'react';
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

/**
 * For a list the page itself scrolls: a ref for an element after its last row that asks for the next page when it
 * comes into view, while pages remain and none is loading. (The list offers a Load more button as well.)
 */
export function useLoadMoreWhenVisible(query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown }) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const [sentinel, setSentinel] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!sentinel || !hasNextPage || isFetchingNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [sentinel, hasNextPage, isFetchingNextPage, fetchNextPage]);
  return setSentinel;
}

import { startTransition, useEffect, useState } from 'react';

/** Rows rendered with a list's first paint: a phone's screen and more, a desktop table's first view. */
export const FIRST_ROWS = 8;
/** Rows added by each later step, each step its own short task so the page stays responsive meanwhile. */
export const ROWS_PER_STEP = 8;

/**
 * How many of a long list's `total` rows to render now: the first screen's at once, the rest a few at a time in the
 * tasks after it (low-priority transitions), so one long render does not block the page while the rows below the fold
 * arrive. A list that shrinks shows all its rows at once.
 */
export function useRevealedCount(total: number, first = FIRST_ROWS, step = ROWS_PER_STEP): number {
  const [limit, setLimit] = useState(first);
  useEffect(() => {
    if (limit >= total) return;
    const timer = setTimeout(() => startTransition(() => setLimit((shown) => shown + step)), 0);
    return () => clearTimeout(timer);
  }, [limit, total, step]);
  return Math.min(limit, total);
}

import type { FetchInfiniteQueryOptions, FetchQueryOptions } from '@tanstack/react-query';
import { queryClient } from './query-client';

/** A read a page is first shown with (a query's options, as its hook uses them; a list read by pages, its first page). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query, whatever its data and key
export type FirstRead = FetchQueryOptions<any, any, any, any> | PagedRead;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list read by pages, whatever its pages
type PagedRead = FetchInfiniteQueryOptions<any, any, any, any, any>;

/** A list read by pages says how to read its next page. */
const isPaged = (read: FirstRead): read is PagedRead => typeof (read as { getNextPageParam?: unknown }).getNextPageParam === 'function';
const prefetch = (read: FirstRead) => (isPaged(read) ? queryClient.prefetchInfiniteQuery(read) : queryClient.prefetchQuery(read));

/** A page waits at most this long for its first reads; past it, it shows with its loaders as before. */
const FIRST_READS_WAIT_MS = 2_000;

/**
 * Resolves once a page's first reads are in the query cache (or after the wait), so the page's first render has its
 * figures: it is then built once, in the transition the console renders in, which yields to the browser between
 * slices. Shown first and filled in later, the page would be built again all at once when each answer arrived (a
 * query's answer re-renders without yielding), the long tasks that keep a slow phone from answering a tap.
 */
export async function primeReads(reads: readonly FirstRead[]): Promise<void> {
  let waited: ReturnType<typeof setTimeout> | undefined;
  const wait = new Promise<void>((resolve) => (waited = setTimeout(resolve, FIRST_READS_WAIT_MS)));
  // prefetchQuery never rejects: a failed read is the page's to show, as when it reads for itself.
  await Promise.race([Promise.all(reads.map(prefetch)), wait]);
  clearTimeout(waited);
}

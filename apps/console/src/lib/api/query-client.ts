import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api-error';
import { getSession, subscribeSession } from '../session';

/** 503 is the server saying a dependency is briefly out of reach (with Retry-After): asking again is expected to work. */
const SERVICE_UNAVAILABLE = 503;
/** How long a read's answer is fresh enough for a part mounting after it. */
const FRESH_FOR_MS = 3_000;

/**
 * Whether a failed read is asked again: once when the server did not answer, twice when it answered 503. Any other
 * answer will not change on a retry.
 */
export function shouldRetryRead(failureCount: number, error: unknown): boolean {
  const status = error instanceof ApiError ? error.status : undefined;
  if (status === undefined) return failureCount < 1;
  return status === SERVICE_UNAVAILABLE && failureCount < 2;
}

export const queryClient = new QueryClient({
  defaultOptions: {
    // A read answered moments ago is not asked again when another part of the same screen mounts with it: without
    // this, a page's later parts read again what its first part has just read.
    queries: { retry: shouldRetryRead, refetchOnWindowFocus: false, staleTime: FRESH_FOR_MS },
    mutations: { retry: false },
  },
});

// Data fetched for one user must never show for the next: drop it all when the session ends.
subscribeSession(() => {
  if (!getSession().jwtToken) queryClient.clear();
});

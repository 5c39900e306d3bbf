import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api-error';
import { getSession, subscribeSession } from '../session';

/** 503 is the server saying a dependency is briefly out of reach (with Retry-After): asking again is expected to work. */
const SERVICE_UNAVAILABLE = 503;

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
    queries: { retry: shouldRetryRead, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

// Data fetched for one user must never show for the next: drop it all when the session ends.
subscribeSession(() => {
  if (!getSession().jwtToken) queryClient.clear();
});

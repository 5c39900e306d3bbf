import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api-error';
import { getSession, subscribeSession } from '../session';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Retry only when the server did not answer; its answers will not change on a retry.
      retry: (failureCount, error) => !(error instanceof ApiError && error.status) && failureCount < 1,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});

// Data fetched for one user must never show for the next: drop it all when the session ends.
subscribeSession(() => {
  if (!getSession().jwtToken) queryClient.clear();
});

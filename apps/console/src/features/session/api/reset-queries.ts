import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';

/** Drops everything loaded so far: after someone else signs in, nothing of the previous identity applies. */
export function useResetAllQueries() {
  const queryClient = useQueryClient();
  return useCallback(() => void queryClient.resetQueries(), [queryClient]);
}

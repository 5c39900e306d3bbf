import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { MarkNoticesReadRequest } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { noticeKeys } from './keys';

/** How many notices the bell lists. */
export const BELL_PAGE_SIZE = 10;
/** The unread count is asked again each minute, and whenever the window gets focus. */
const UNREAD_REFRESH_MS = 60_000;

/** The signed-in person's latest notices and how many are unread. */
export const latestNoticesQuery = queryOptions({
  queryKey: noticeKeys.latest(BELL_PAGE_SIZE),
  queryFn: ({ signal }) => api.get('/api/user/notifications', { query: { page: 0, size: BELL_PAGE_SIZE }, signal }),
});

export function useLatestNotices() {
  return useQuery({ ...latestNoticesQuery, refetchInterval: UNREAD_REFRESH_MS, refetchOnWindowFocus: true });
}

/** Marks some notices (ids) or all of them read; the bell reads again after. */
export function useMarkNoticesRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkNoticesReadRequest) => api.post('/api/user/notifications/read', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noticeKeys.all }),
  });
}

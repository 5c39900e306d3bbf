import { infiniteQueryOptions } from '@tanstack/react-query';
import { useInfiniteQuery } from '../../../lib/use-query';
import type { TimelineResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchTimeline(deploymentId: string, before: string | undefined, signal?: AbortSignal): Promise<TimelineResponse> {
  return api.get(`/api/cluster/timeline/${encodeURIComponent(deploymentId)}`, { query: before ? { before } : undefined, signal });
}

/** The cluster's timeline, 14 days a page; the next page holds the days before the last one shown. */
export const timelineQuery = (deploymentId: string) =>
  infiniteQueryOptions({
    queryKey: clusterKeys.timeline(deploymentId),
    queryFn: ({ pageParam, signal }) => fetchTimeline(deploymentId, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (lastPage) => lastPage.next_before ?? undefined,
  });

export function useTimeline(deploymentId: string) {
  return useInfiniteQuery(timelineQuery(deploymentId));
}

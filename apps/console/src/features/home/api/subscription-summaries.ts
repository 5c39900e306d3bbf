import { useQuery } from '@tanstack/react-query';
import type { Subscription } from '@kumo/contract';
import { api } from '../../../lib/api-client';

/** The same key as the subscriptions page's list, so either page's fetch serves both and its invalidations reach home. */
export const subscriptionSummariesQueryKey = ['subscriptions', 'list'] as const;

export function fetchSubscriptionSummaries(signal?: AbortSignal): Promise<Subscription[]> {
  return api.get<Subscription[]>('/api/subscription/list', { signal });
}

export function useSubscriptionSummaries() {
  return useQuery({ queryKey: subscriptionSummariesQueryKey, queryFn: ({ signal }) => fetchSubscriptionSummaries(signal) });
}

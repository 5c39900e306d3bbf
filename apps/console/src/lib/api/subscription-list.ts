import { queryOptions } from '@tanstack/react-query';
import { useQuery } from '../use-query';
import type { Subscription } from '@kumo/contract';
import { api } from '../api-client';
import { sharedKeys } from './keys';

/**
 * The account's subscriptions with their balances. Several features show them (subscriptions, home,
 * clusters), and features do not import one another: they share this one query, so a fetch by either
 * page serves both and an invalidation reaches every screen.
 */
export const subscriptionListKey = sharedKeys.subscriptionList();

export function fetchSubscriptionList(signal?: AbortSignal): Promise<Subscription[]> {
  return api.get('/api/subscription/list', { signal });
}

export const subscriptionListQuery = queryOptions({
  queryKey: subscriptionListKey,
  queryFn: ({ signal }) => fetchSubscriptionList(signal),
});

export function useSubscriptionList() {
  return useQuery(subscriptionListQuery);
}

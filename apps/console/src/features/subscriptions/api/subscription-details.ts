import { useQuery } from '@tanstack/react-query';
import type { Subscription } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

export function fetchSubscriptionDetails(subscriptionId: string, signal?: AbortSignal): Promise<Subscription> {
  return api.get('/api/subscription/details', { query: { subscription_id: subscriptionId }, signal });
}

/** The selected subscription, read fresh: its status and balance may have moved since the list loaded. */
export function useSubscriptionDetails(subscriptionId: string | undefined) {
  return useQuery({
    queryKey: subscriptionKeys.details(subscriptionId ?? ''),
    queryFn: ({ signal }) => fetchSubscriptionDetails(subscriptionId!, signal),
    enabled: !!subscriptionId,
  });
}

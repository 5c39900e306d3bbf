import { useQuery } from '../../../lib/use-query';
import { fetchSubscriptionList, subscriptionListKey } from '../../../lib/api/subscription-list';

/**
 * The subscriptions a cluster can be deployed under, with the balances the create form checks: the one shared
 * list query (lib/subscription-list.ts), so one fetch serves every screen and their invalidations reach here.
 */
export function useSubscriptionsForClusters(options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: subscriptionListKey, queryFn: ({ signal }) => fetchSubscriptionList(signal), ...options });
}

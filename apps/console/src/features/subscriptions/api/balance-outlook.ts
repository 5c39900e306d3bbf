import { useQuery } from '../../../lib/use-query';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

/** How long the balance lasts, paid funds and free-credit grants, and rate changes to come. */
export function useBalanceOutlook(subscriptionId: string) {
  return useQuery({
    queryKey: subscriptionKeys.outlook(subscriptionId),
    queryFn: ({ signal }) => api.get(`/api/subscription/consumption/outlook/${encodeURIComponent(subscriptionId)}`, { signal }),
  });
}

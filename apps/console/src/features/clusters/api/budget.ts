import { useQuery } from '../../../lib/use-query';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

/**
 * The subscription's budget, read when a start is about to be confirmed: with the hard cap it says how much a
 * cluster's running hour may cost for it to start. Only owners and admins may read it; for others it fails quietly.
 */
export function useStartBudget(subscriptionId: string | undefined) {
  return useQuery({
    queryKey: clusterKeys.budget(subscriptionId ?? ''),
    queryFn: ({ signal }) => api.get(`/api/subscription/${encodeURIComponent(subscriptionId!)}/budget`, { signal }),
    enabled: Boolean(subscriptionId),
  });
}

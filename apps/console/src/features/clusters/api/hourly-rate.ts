import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

/** What a running cluster would cost per hour at the subscription's rates, and how long the balance lasts. */
export function useHourlyRatePreview(subscriptionId: string | undefined, dr: boolean) {
  return useQuery({
    queryKey: [...clusterKeys.all, 'hourly-rate', subscriptionId ?? '', dr] as const,
    queryFn: ({ signal }) =>
      api.get('/api/cluster/consumption/hourly-rate', { query: { subscriptionId: subscriptionId!, dr: String(dr) }, signal }),
    enabled: Boolean(subscriptionId),
  });
}

import { useQuery } from '../../../lib/use-query';
import type { ClusterSize } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

/** A cluster's shape: the size of its query engines and how many run. */
export interface Shape {
  size: ClusterSize;
  queryEngines: number;
}

/**
 * What a running cluster of the shape would cost per hour at the subscription's rates (and stopped, its storage), and
 * how long the balance lasts.
 */
export function useHourlyRatePreview(subscriptionId: string | undefined, dr: boolean, shape: Shape) {
  return useQuery({
    queryKey: [...clusterKeys.all, 'hourly-rate', subscriptionId ?? '', dr, shape.size, shape.queryEngines] as const,
    queryFn: ({ signal }) =>
      api.get('/api/cluster/consumption/hourly-rate', {
        query: { subscriptionId: subscriptionId!, dr: String(dr), size: shape.size, query_engines: String(shape.queryEngines) },
        signal,
      }),
    enabled: Boolean(subscriptionId),
  });
}

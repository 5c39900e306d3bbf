import { useQuery } from '../../../lib/use-query';
import type { CloudProvider, RegionMapping } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchRegionMapping(cloudProvider: CloudProvider, signal?: AbortSignal): Promise<RegionMapping> {
  return api.get('/api/cluster/region-mapping', { query: { cloudProvider }, signal });
}

/** The regions a cluster can be deployed to, each with the backup regions it pairs with. */
export function useRegionMapping(cloudProvider: CloudProvider) {
  return useQuery({
    queryKey: clusterKeys.regionMapping(cloudProvider),
    queryFn: ({ signal }) => fetchRegionMapping(cloudProvider, signal),
    staleTime: Infinity,
  });
}

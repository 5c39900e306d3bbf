import { useQuery } from '../../../lib/use-query';
import type { CidrResponse, CloudProvider } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export interface CidrParams {
  deploymentRegion: string;
  backupRegion: string;
  enableDrFlag: boolean;
  cloudProvider: CloudProvider;
}

export function fetchCidr(params: CidrParams, signal?: AbortSignal): Promise<CidrResponse> {
  return api.get('/api/cluster/cidr', {
    query: {
      deploymentRegion: params.deploymentRegion,
      backupRegion: params.enableDrFlag && params.backupRegion ? params.backupRegion : undefined,
      enableDrFlag: params.enableDrFlag,
      cloudProvider: params.cloudProvider,
    },
    signal,
  });
}

/** A /16 that overlaps none of the account's clusters in the chosen regions, to prefill the CIDR field. */
export function useCidrSuggestion(params: CidrParams) {
  return useQuery({
    queryKey: clusterKeys.cidr(params),
    queryFn: ({ signal }) => fetchCidr(params, signal),
    enabled: !!params.deploymentRegion,
    staleTime: 0,
    gcTime: 0,
  });
}

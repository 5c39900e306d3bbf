import { useQuery } from '../../../lib/use-query';
import type { EaVersionResponse, KumoVersionsResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchEaVersionFlag(signal?: AbortSignal): Promise<EaVersionResponse> {
  return api.get('/api/cluster/check-kumo-ea-version', { signal });
}

export function fetchKumoVersions(signal?: AbortSignal): Promise<KumoVersionsResponse> {
  return api.get('/api/cluster/kumo-versions', { signal });
}

/**
 * The versions a cluster can be deployed with: the preview flag is read first (spec section 7), then
 * the list, which holds preview versions only when the account has the preview release.
 */
export function useKumoVersions() {
  return useQuery({
    queryKey: clusterKeys.versions(),
    queryFn: async ({ signal }) => {
      const flag = await fetchEaVersionFlag(signal);
      const { kumo_versions } = await fetchKumoVersions(signal);
      return { previewEnabled: flag.kumo_ea_version_enabled, versions: kumo_versions };
    },
  });
}

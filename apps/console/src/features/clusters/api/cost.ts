import { useQuery } from '../../../lib/use-query';
import { UI_TIMING, type CreditAnalysis } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { clusterKeys } from './keys';

export function fetchClusterCreditAnalysis(deploymentId: string, startDate: string, signal: AbortSignal): Promise<CreditAnalysis> {
  return api.get(`/api/cluster/consumption/credit-analysis/${encodeURIComponent(deploymentId)}`, { query: { startDate }, signal });
}

/** The month's actual cost and forecast and the hourly rate now, followed while the tab is open. */
export function useClusterCostOverview(deploymentId: string, startDate: string) {
  return useQuery({
    queryKey: clusterKeys.consumptionOverview(deploymentId, startDate),
    queryFn: ({ signal }) =>
      api.get(`/api/cluster/consumption/overview/${encodeURIComponent(deploymentId)}`, { query: { startDate }, signal }),
    refetchInterval: UI_TIMING.pollingMs,
  });
}

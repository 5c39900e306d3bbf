import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { CreditAnalysis, Subscription } from '@kumo/contract';
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

/** Reads the list again when the fresher details show the balance or status moved. */
export function useRefreshSubscriptionList() {
  const queryClient = useQueryClient();
  return useCallback(() => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.list() }), [queryClient]);
}

export function fetchSubscriptionCreditAnalysis(subscriptionId: string, startDate: string, signal: AbortSignal): Promise<CreditAnalysis> {
  return api.get(`/api/subscription/consumption/credit-analysis/${encodeURIComponent(subscriptionId)}`, { query: { startDate }, signal });
}

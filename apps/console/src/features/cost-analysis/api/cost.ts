import { queryOptions, keepPreviousData } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import { UI_TIMING } from '@kumo/contract';
import { api } from '../../../lib/api-client';

export const costKeys = {
  all: ['cost-analysis'] as const,
  overview: (startDate: string) => [...costKeys.all, 'overview', startDate] as const,
  subscription: (subscriptionId: string, startDate: string) => [...costKeys.all, 'subscription', subscriptionId, startDate] as const,
  budget: (subscriptionId: string) => [...costKeys.all, 'budget', subscriptionId] as const,
};

/** Actual cost, forecast and balance of each subscription for a month. */
export function consumptionOverviewQuery(startDate: string) {
  return queryOptions({
    queryKey: costKeys.overview(startDate),
    queryFn: ({ signal }) => api.get('/api/subscription/consumption/overview', { query: { startDate }, signal }),
  });
}

export function useConsumptionOverview(startDate: string) {
  return useQuery({
    ...consumptionOverviewQuery(startDate),
    refetchInterval: UI_TIMING.pollingMs,
    placeholderData: keepPreviousData,
  });
}

/** One subscription's daily cost by service and its last 12 months. */
export function useSubscriptionAnalysis(subscriptionId: string | undefined, startDate: string) {
  return useQuery({
    queryKey: costKeys.subscription(subscriptionId ?? '', startDate),
    queryFn: ({ signal }) =>
      api.get(`/api/subscription/consumption/credit-analysis/${encodeURIComponent(subscriptionId!)}`, { query: { startDate }, signal }),
    enabled: Boolean(subscriptionId),
    refetchInterval: UI_TIMING.pollingMs,
    placeholderData: keepPreviousData,
  });
}

/** The subscription's monthly budget, drawn on its running total (monthly_amount null when it has none). */
export function useSubscriptionBudget(subscriptionId: string) {
  return useQuery({
    queryKey: costKeys.budget(subscriptionId),
    queryFn: ({ signal }) => api.get(`/api/subscription/${encodeURIComponent(subscriptionId)}/budget`, { signal }),
    refetchInterval: UI_TIMING.pollingMs,
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { Budget, BudgetRequest } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

const budgetPath = (subscriptionId: string) => `/api/subscription/${encodeURIComponent(subscriptionId)}/budget` as const;

/** The subscription's monthly budget (monthly_amount null when none), this month's spend, forecast and alerts. */
export function useBudget(subscriptionId: string) {
  return useQuery({
    queryKey: subscriptionKeys.budget(subscriptionId),
    queryFn: ({ signal }) => api.get(budgetPath(subscriptionId), { signal }),
  });
}

/**
 * Saving or removing a budget answers the budget as it now is; saving may also have stopped clusters (the hard cap),
 * so the subscription's details and the list are read again.
 */
function useBudgetChange<Input extends { subscriptionId: string }>(change: (input: Input) => Promise<Budget>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (budget, { subscriptionId }) => {
      queryClient.setQueryData(subscriptionKeys.budget(subscriptionId), budget);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.details(subscriptionId) }),
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.list() }),
      ]);
    },
  });
}

export function useSaveBudget() {
  return useBudgetChange(({ subscriptionId, budget }: { subscriptionId: string; budget: BudgetRequest }) =>
    api.put(budgetPath(subscriptionId), budget),
  );
}

export function useRemoveBudget() {
  return useBudgetChange(({ subscriptionId }: { subscriptionId: string }) => api.delete(budgetPath(subscriptionId)));
}

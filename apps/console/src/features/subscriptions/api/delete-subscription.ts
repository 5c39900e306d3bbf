import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DeleteSubscriptionResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

export interface DeleteSubscriptionInput {
  subscriptionId: string;
  /** Another subscription of the account that receives the paid balance. */
  transferTo?: string;
}

export function deleteSubscription({ subscriptionId, transferTo }: DeleteSubscriptionInput): Promise<DeleteSubscriptionResponse> {
  return api.delete(`/api/subscription/delete/${encodeURIComponent(subscriptionId)}`, undefined, {
    query: transferTo ? { transfer_to: transferTo } : undefined,
  });
}

export function useDeleteSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSubscription,
    onSuccess: (_data, { subscriptionId, transferTo }) => {
      queryClient.removeQueries({ queryKey: subscriptionKeys.details(subscriptionId) });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.list() }),
        ...(transferTo
          ? [
              queryClient.invalidateQueries({ queryKey: subscriptionKeys.details(transferTo) }),
              queryClient.invalidateQueries({ queryKey: subscriptionKeys.transactions(transferTo) }),
            ]
          : []),
      ]);
    },
  });
}

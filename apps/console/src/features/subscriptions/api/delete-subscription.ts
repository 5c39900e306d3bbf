import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

export function deleteSubscription(subscriptionId: string): Promise<MessageResponse> {
  return api.delete<MessageResponse>(`/api/subscription/delete/${encodeURIComponent(subscriptionId)}`);
}

export function useDeleteSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSubscription,
    onSuccess: (_data, subscriptionId) => {
      queryClient.removeQueries({ queryKey: subscriptionKeys.details(subscriptionId) });
      return queryClient.invalidateQueries({ queryKey: subscriptionKeys.list() });
    },
  });
}

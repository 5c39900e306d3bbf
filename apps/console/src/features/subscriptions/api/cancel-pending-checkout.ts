import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaymentStatus } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

/** Cancels a checkout still waiting for payment, from its row in the history; the server refuses any other. */
export function cancelPendingCheckout(transactionId: string): Promise<PaymentStatus> {
  return api.post(`/api/credit/cancel/${encodeURIComponent(transactionId)}`);
}

export function useCancelPendingCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelPendingCheckout,
    onSuccess: (status) => queryClient.invalidateQueries({ queryKey: subscriptionKeys.transactions(status.subscription_id) }),
  });
}

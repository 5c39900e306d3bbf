import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaymentStatus } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

/** The customer left the provider's page through its cancel link: the checkout is closed unless it was paid. */
export function cancelPurchase(purchaseId: string): Promise<PaymentStatus> {
  return api.post(`/api/credit/purchase/${encodeURIComponent(purchaseId)}/cancel`);
}

export function useCancelPurchase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelPurchase,
    onSuccess: (status) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.list() }),
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.details(status.subscription_id) }),
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.transactions(status.subscription_id) }),
      ]),
  });
}

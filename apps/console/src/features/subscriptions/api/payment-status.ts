import { useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { PaymentStatus } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

export function fetchPaymentStatus(subscriptionId: string, sessionId: string, signal?: AbortSignal): Promise<PaymentStatus> {
  return api.get(`/api/credit/payment-status/${encodeURIComponent(subscriptionId)}`, {
    query: { session_id: sessionId },
    signal,
  });
}

/** Confirms the checkout the browser came back from; the balance and history are read again once it is known. */
export function usePaymentStatus(subscriptionId: string, sessionId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: subscriptionKeys.paymentStatus(sessionId),
    queryFn: async ({ signal }) => {
      const status = await fetchPaymentStatus(subscriptionId, sessionId, signal);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.list() }),
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.details(subscriptionId) }),
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.transactions(subscriptionId) }),
      ]);
      return status;
    },
    staleTime: Infinity,
    retry: false,
  });
}

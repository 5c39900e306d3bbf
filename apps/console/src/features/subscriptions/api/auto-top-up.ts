import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import { UI_TIMING, type AutoTopUp, type AutoTopUpRequest } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

const autoTopUpPath = (subscriptionId: string) => `/api/subscription/${encodeURIComponent(subscriptionId)}/auto-top-up` as const;
const paymentMethodPath = (subscriptionId: string) => `/api/subscription/${encodeURIComponent(subscriptionId)}/payment-method` as const;

/**
 * The subscription's automatic top-up: its settings, status, saved card, this month's top-ups and the last attempt.
 * `readBackCard` (on the way back from the provider's setup page) asks the API to read the new card back first.
 */
export function useAutoTopUp(subscriptionId: string, readBackCard = false) {
  return useQuery({
    queryKey: subscriptionKeys.autoTopUp(subscriptionId),
    queryFn: ({ signal }) => api.get(autoTopUpPath(subscriptionId), { signal, query: readBackCard ? { card: 'saved' } : undefined }),
    // A top-up, or a pause after a refused charge, follows a metering run while the page is open, as costs do.
    refetchInterval: UI_TIMING.pollingMs,
  });
}

/** Saving the settings or removing the card answers the automatic top-up as it now is. */
function useAutoTopUpChange<Input extends { subscriptionId: string }>(change: (input: Input) => Promise<AutoTopUp>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (autoTopUp, { subscriptionId }) => {
      queryClient.setQueryData(subscriptionKeys.autoTopUp(subscriptionId), autoTopUp);
    },
  });
}

export function useSaveAutoTopUp() {
  return useAutoTopUpChange(({ subscriptionId, settings }: { subscriptionId: string; settings: AutoTopUpRequest }) =>
    api.put(autoTopUpPath(subscriptionId), settings),
  );
}

export function useRemoveCard() {
  return useAutoTopUpChange(({ subscriptionId }: { subscriptionId: string }) => api.delete(paymentMethodPath(subscriptionId)));
}

/** Starts saving a card: answers where to send the browser (the provider's page in setup mode), which returns to the subscription. */
export function useStartCardSetup() {
  return useMutation({
    mutationFn: ({ subscriptionId }: { subscriptionId: string }) => api.post(paymentMethodPath(subscriptionId)),
  });
}

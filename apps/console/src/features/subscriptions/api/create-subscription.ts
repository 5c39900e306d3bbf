import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateSubscriptionRequest, CreateSubscriptionResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

export function createSubscription(request: CreateSubscriptionRequest): Promise<CreateSubscriptionResponse> {
  return api.post('/api/subscription/create', request);
}

export function useCreateSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionKeys.list() }),
  });
}

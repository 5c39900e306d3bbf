import { useQuery } from '@tanstack/react-query';
import type { Subscription } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { subscriptionKeys } from './keys';

export function fetchSubscriptions(signal?: AbortSignal): Promise<Subscription[]> {
  return api.get<Subscription[]>('/api/subscription/list', { signal });
}

/** The account's subscriptions with their balances. */
export function useSubscriptions() {
  return useQuery({ queryKey: subscriptionKeys.list(), queryFn: ({ signal }) => fetchSubscriptions(signal) });
}

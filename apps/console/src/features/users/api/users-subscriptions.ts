import { useQuery } from '@tanstack/react-query';
import type { SubscriptionOption } from '@kumo/contract';
import { api } from '../../../lib/api-client';

export const usersSubscriptionsQueryKey = ['account', 'users-subscriptions'] as const;

export function fetchUsersSubscriptions(signal?: AbortSignal): Promise<SubscriptionOption[]> {
  return api.get<SubscriptionOption[]>('/api/account/users-subscriptions', { signal });
}

export function useUsersSubscriptions({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: usersSubscriptionsQueryKey, queryFn: ({ signal }) => fetchUsersSubscriptions(signal), enabled });
}

import { useQuery } from '../../../lib/use-query';
import type { SubscriptionOption } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { usersKeys } from './keys';

export const usersSubscriptionsQueryKey = usersKeys.subscriptionOptions();

export function fetchUsersSubscriptions(signal?: AbortSignal): Promise<SubscriptionOption[]> {
  return api.get('/api/account/users-subscriptions', { signal });
}

export function useUsersSubscriptions({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: usersSubscriptionsQueryKey, queryFn: ({ signal }) => fetchUsersSubscriptions(signal), enabled });
}

import { useQuery } from '@tanstack/react-query';
import type { AccountUser } from '@kumo/contract';
import { api } from '../../../lib/api-client';

export const accountUsersQueryKey = ['account', 'users'] as const;

export function fetchAccountUsers(signal?: AbortSignal): Promise<AccountUser[]> {
  return api.get<AccountUser[]>('/api/account/users', { signal });
}

/** The people of the logged-in account. */
export function useAccountUsers() {
  return useQuery({ queryKey: accountUsersQueryKey, queryFn: ({ signal }) => fetchAccountUsers(signal) });
}

import { queryOptions } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { AccountUser } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { usersKeys } from './keys';

export const accountUsersQueryKey = usersKeys.list();

export function fetchAccountUsers(signal?: AbortSignal): Promise<AccountUser[]> {
  return api.get('/api/account/users', { signal });
}

/** The people of the logged-in account. */
export const accountUsersQuery = queryOptions({ queryKey: accountUsersQueryKey, queryFn: ({ signal }) => fetchAccountUsers(signal) });

export function useAccountUsers() {
  return useQuery(accountUsersQuery);
}

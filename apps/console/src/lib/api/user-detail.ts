import { queryOptions } from '@tanstack/react-query';
import { useQuery } from '../use-query';
import type { UserDetail } from '@kumo/contract';
import { api } from '../api-client';
import { saveUser, useSession } from '../session';
import { sharedKeys } from './keys';

export const userDetailQueryKey = sharedKeys.userDetail();

/** Fetches the signed-in user and keeps the stored userInfo in step with it. */
export async function fetchUserDetail(signal?: AbortSignal): Promise<UserDetail> {
  const user = await api.get('/api/user/detail', { signal });
  saveUser(user);
  return user;
}

/** Read once per visit, so role or account changes made elsewhere apply. */
export const userDetailQuery = queryOptions({
  queryKey: userDetailQueryKey,
  queryFn: ({ signal }) => fetchUserDetail(signal),
  staleTime: Infinity,
});

/** The signed-in user, re-read once per visit. */
export function useUserDetail() {
  const { jwtToken } = useSession();
  return useQuery({ ...userDetailQuery, enabled: jwtToken !== null });
}

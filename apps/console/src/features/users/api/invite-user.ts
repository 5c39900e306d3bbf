import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteRequest, InviteResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { accountUsersQueryKey } from './account-users';

export function inviteUser(request: InviteRequest): Promise<InviteResponse> {
  return api.post<InviteResponse>('/api/user/invite', request);
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountUsersQueryKey, exact: true }),
  });
}

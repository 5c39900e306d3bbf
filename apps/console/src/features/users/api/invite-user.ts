import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteRequest, InviteResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { accountUsersQueryKey } from './account-users';
import { pendingInvitationsQueryKey } from './pending-invitations';

export function inviteUser(request: InviteRequest): Promise<InviteResponse> {
  return api.post('/api/user/invite', request);
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    // A new invitation shows among the pending ones until it is accepted.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accountUsersQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: pendingInvitationsQueryKey, exact: true }),
      ]),
  });
}

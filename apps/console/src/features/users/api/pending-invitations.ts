import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useQuery } from '../../../lib/use-query';
import type { MessageResponse, PendingInvitation } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { usersKeys } from './keys';

export const pendingInvitationsQueryKey = usersKeys.pendingInvitations();

export function fetchPendingInvitations(signal?: AbortSignal): Promise<PendingInvitation[]> {
  return api.get('/api/account/invitations', { signal });
}

/** Invitations of the logged-in account nobody has accepted or revoked yet (expired ones included). */
export const pendingInvitationsQuery = queryOptions({
  queryKey: pendingInvitationsQueryKey,
  queryFn: ({ signal }) => fetchPendingInvitations(signal),
});

export function usePendingInvitations() {
  return useQuery(pendingInvitationsQuery);
}

/** Both change the list: a resend moves the expiry on, a revoke removes the invitation. */
function useInvitationChange(send: (invitationId: string) => Promise<MessageResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: pendingInvitationsQueryKey, exact: true }),
  });
}

export function useResendInvitation() {
  return useInvitationChange((invitationId) => api.post(`/api/user/invite/${encodeURIComponent(invitationId)}/resend`));
}

export function useRevokeInvitation() {
  return useInvitationChange((invitationId) => api.delete(`/api/user/invite/${encodeURIComponent(invitationId)}`));
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MessageResponse } from '@kumo/contract';
import { api } from '../../../lib/api-client';
import { accountUsersQueryKey } from './account-users';

export function deleteUser(email: string): Promise<MessageResponse> {
  return api.put('/api/account/delete-user', { email_id: email });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountUsersQueryKey, exact: true }),
  });
}

import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** The full name of a registered person; rejects with USER_NOT_FOUND (404) for an unknown e-mail. */
export async function checkUser(email: string): Promise<string> {
  const { data } = await api.get('/api/user/check-user', { query: { email_id: email } });
  return data;
}

export function useCheckUser() {
  return useMutation({ mutationFn: checkUser });
}

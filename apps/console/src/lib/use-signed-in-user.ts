import type { UserDetail } from '@kumo/contract';
import { useUserDetail } from './api/user-detail';
import { useSession } from './session';

export type SignedInState = { status: 'signed-out' } | { status: 'loading' } | { status: 'ready'; user: UserDetail };

/**
 * The user behind the stored token. The stored userInfo answers at once; the user detail call keeps it
 * fresh and fills it in when only tokens are stored (as after single sign-on).
 */
export function useSignedInUser(): SignedInState {
  const { jwtToken, user } = useSession();
  const detail = useUserDetail();
  if (!jwtToken) return { status: 'signed-out' };
  if (user) return { status: 'ready', user };
  return detail.isError ? { status: 'signed-out' } : { status: 'loading' };
}

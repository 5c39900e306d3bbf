import { isSystemRole } from '@kumo/contract';
import { api } from './api-client';
import { clearSession } from './session';

/** Ends the session on the server and forgets it locally, even when the server call fails. */
export async function signOut(): Promise<void> {
  try {
    await api.post('/api/user/logout');
  } catch {
    // The local session ends regardless; an already-expired session is the usual cause.
  } finally {
    clearSession();
  }
}

/** Staff sign in at the admin login; everyone else at the customer login. */
export function signInPath(role: string | undefined): string {
  return role && isSystemRole(role) ? '/admin/login' : '/login';
}

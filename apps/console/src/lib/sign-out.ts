import { isSystemRole } from '@kumo/contract';
import { api } from './api-client';
import { announceSessionEnd, endSession, inCustomerView } from './session';

/**
 * Ends the session on the server and forgets it locally, even when the server call fails. A customer view ends
 * back in the staff member's own session. The session's end is announced once, before the server call.
 */
export async function signOut(): Promise<void> {
  const viewing = inCustomerView();
  // What ends with the session (the report tool's logout) goes first, while the session still opens calls.
  await announceSessionEnd();
  try {
    await api.post('/api/user/logout');
  } catch {
    // The local session ends regardless; an already-expired session is the usual cause.
  } finally {
    // A view the failed call has ended already is not ended twice: that would end the staff member's session too.
    if (!viewing || inCustomerView()) endSession();
  }
}

/** Staff sign in at the admin login; everyone else at the customer login. */
export function signInPath(role: string | undefined): string {
  return role && isSystemRole(role) ? '/admin/login' : '/login';
}

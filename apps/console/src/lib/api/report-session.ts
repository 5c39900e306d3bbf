import { api } from '../api-client';
import { onSessionEnd } from '../session';

/**
 * Ends the user's report sessions (the report tool's logout): with the current session's token, or with the token of
 * a session that is ending. Nothing waits on its answer; it resolves once the call is over, whatever the answer.
 */
export function endReportSession(token?: string): Promise<void> {
  return api.get('/api/user/report-logout', token === undefined ? undefined : { token }).then(
    () => undefined,
    () => undefined,
  );
}

/**
 * Every session end (logout, a failed refresh, a 401 on logout, the account's role mapping gone) ends the report
 * sessions too, once, with the token of the session that ends (spec section 4). Returns the unsubscribe.
 */
export function endReportSessionsWithSignIn(): () => void {
  return onSessionEnd((token) => endReportSession(token));
}

import { api } from '../api-client';

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

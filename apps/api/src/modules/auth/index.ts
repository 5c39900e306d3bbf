/** The auth module's public face: sign-in and sessions, access-token checks, the server secret, the account's staff trail. */
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { TokenHasher } from '../../lib/crypto.js';
import { createAccessTokens } from './access-tokens.js';
import { createAuthRepository } from './auth.repository.js';
import { createAuthService as createService } from './auth.service.js';

export type { AuthService, IssuedTokens } from './auth.service.js';
export { authRoutes } from './auth.routes.js';
export { createStaffActionLog, type StaffActionEvent, type StaffActionLog } from './staff-actions.js';
export { StoredSecretMismatchError, loadAuthSecret } from './server-secret.js';
export { seedDemoUsers, type DemoPeople } from './demo-users.js';
export { createAccountRecords, type AccountRecords } from './account-records.js';
export { accountDirectory, accountMemberDirectory, userDirectory } from './auth.views.js';

type Deps = Omit<Parameters<typeof createService>[0], 'repository' | 'accessTokens'> & {
  db: Database;
  clock: Clock;
  /** The key access tokens are signed with, derived for that alone. */
  accessTokenKey: string;
  hasher: TokenHasher;
};

export function createAuthService(deps: Deps) {
  const repository = createAuthRepository(deps.db);
  const service = createService({ ...deps, repository, accessTokens: createAccessTokens(deps.accessTokenKey, deps.clock) });
  return Object.assign(service, {
    /** Whether a session is still open: not ended (logout, a customer view's end, replay) and not past its end. */
    async isSessionLive(sessionId: string): Promise<boolean> {
      const session = await repository.findSession(sessionId);
      return !!session && !session.revokedAt && (!session.expiresAt || session.expiresAt > deps.clock.now());
    },
  });
}

import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { TokenHasher } from '../../lib/crypto.js';
import type { MailService } from '../mail/index.js';
import type { AccessTokens } from './access-tokens.js';
import { createAccountReads } from './account-reads.js';
import type { AuthRepository } from './auth.repository.js';
import { createCustomerView } from './customer-view.js';
import { createOtpChallenges } from './otp-challenges.js';
import { createOtpSignIn } from './otp-sign-in.js';
import { createSessions } from './sessions.js';

export type { IssuedTokens } from './sessions.js';

/** The auth module's use cases, each from its own file and given only what it uses. */
export function createAuthService(deps: {
  db: Database;
  repository: AuthRepository;
  mail: MailService;
  accessTokens: AccessTokens;
  clock: Clock;
  hasher: TokenHasher;
}) {
  const { db, repository, mail, accessTokens, clock, hasher } = deps;
  const sessions = createSessions({ db, repository, accessTokens, clock, hasher });
  const otp = createOtpChallenges({ db, repository, mail, clock, hasher });
  return {
    approvalOtp: otp.approvalOtp,
    ...createOtpSignIn({ repository, otp, sessions, clock }),
    signInStaff: sessions.signInStaff,
    refresh: sessions.refresh,
    switchAccount: sessions.switchAccount,
    openSession: sessions.openSession,
    revokeAccountSessions: sessions.revokeAccountSessions,
    /** Where the account owner is mailed: approvals of cluster deletion, metering's notices. */
    accountOwnerEmail: (accountId: string) => repository.accountOwnerEmail(accountId),
    verifyAccessToken: sessions.verifyAccessToken,
    ...createCustomerView({ db, repository, sessions, clock }),
    ...createAccountReads({ repository, clock }),
  };
}
export type AuthService = ReturnType<typeof createAuthService>;

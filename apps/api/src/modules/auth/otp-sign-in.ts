import { MESSAGES, type Role } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { businessRule, conflict, notFound } from '../../errors.js';
import { hashesEqual } from '../../lib/crypto.js';
import type { AuthRepository, UserRow } from './auth.repository.js';
import type { OtpChallenges, OtpPurpose } from './otp-challenges.js';
import type { OtpComparison } from './otp-attempts.js';
import type { IssuedTokens, Sessions } from './sessions.js';

/** Sign-up and login by an OTP mailed to the e-mail: asking for one, asking again, and typing it. */
export function createOtpSignIn(deps: {
  repository: AuthRepository;
  otp: Pick<OtpChallenges, 'issueOtp' | 'attemptOtp' | 'otpHash'>;
  sessions: Pick<Sessions, 'resolveRole' | 'startSession'>;
  clock: Clock;
}) {
  const { repository, otp: challenges, sessions, clock } = deps;
  const { issueOtp, attemptOtp, otpHash } = challenges;

  return {
    async login(email: string): Promise<void> {
      const user = await repository.findUserByEmail(email);
      if (!user) throw notFound('USER_NOT_FOUND', MESSAGES.userNotRegistered);
      await issueOtp(email, 'LOGIN', null);
    },

    async register(email: string, userName: string): Promise<void> {
      if (await repository.findUserByEmail(email)) throw conflict('USER_ALREADY_EXISTS', MESSAGES.userAlreadyRegistered);
      await issueOtp(email, 'SIGN_UP', userName);
    },

    async resendOtp(email: string): Promise<void> {
      const challenge = await repository.latestOpenChallenge(email);
      if (!challenge) throw businessRule('OTP_NOT_REQUESTED', MESSAGES.otpNotRequested);
      await issueOtp(email, challenge.purpose as OtpPurpose, challenge.userName);
    },

    async authenticate(email: string, otp: string, accountId?: string | null): Promise<IssuedTokens & { role: Role; signUp: boolean }> {
      // The lock check, the comparison and the count are one step per e-mail, whichever process each attempt reaches.
      const { user, signUp } = await attemptOtp(email, async (tx): Promise<OtpComparison<{ user: UserRow; signUp: boolean }>> => {
        const now = clock.now();
        const challenge = await repository.latestOpenChallenge(email, tx);
        if (!challenge) throw businessRule('OTP_NOT_REQUESTED', MESSAGES.otpNotRequested);
        if (challenge.expiresAt <= now) throw businessRule('OTP_EXPIRED', MESSAGES.otpExpired);
        if (!hashesEqual(challenge.otpHash, otpHash(email, otp))) return { matched: false };
        if (!(await repository.consumeChallenge(challenge.id, now, tx))) throw businessRule('OTP_INVALID', MESSAGES.otpInvalid);
        const existing = await repository.findUserByEmail(email, tx);
        if (existing) return { matched: true, value: { user: existing, signUp: false } };
        if (challenge.purpose !== 'SIGN_UP') throw notFound('USER_NOT_FOUND', MESSAGES.userNotRegistered);
        const created = await repository.insertUser(
          { email, name: challenge.userName ?? email, authProvider: 'EMAIL_OTP_AUTH', createdAt: now },
          tx,
        );
        await repository.insertAccountWithOwner(created.id, now, tx);
        return { matched: true, value: { user: created, signUp: true } };
      });
      const { accountId: chosenAccount, role } = await sessions.resolveRole(user, accountId);
      return { ...(await sessions.startSession(user.id, chosenAccount, role)), role, signUp };
    },
  };
}

import { MESSAGES, OTP } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { HOUR, MINUTE } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { businessRule, tooManyRequests } from '../../errors.js';
import { hashesEqual, type TokenHasher } from '../../lib/crypto.js';
import type { MailService } from '../mail/index.js';
import type { AuthRepository } from './auth.repository.js';
import { otpMail } from './otp-mail.js';
import { createOtpAttempts, type OtpComparison } from './otp-attempts.js';
import { generateOtp } from './secrets.js';

export type OtpPurpose = 'LOGIN' | 'SIGN_UP';

export type OtpChallenges = ReturnType<typeof createOtpChallenges>;

/** OTPs: made, stored as an HMAC, mailed under the resend limit, and compared under the attempt lock. */
export function createOtpChallenges(deps: {
  db: Database;
  repository: AuthRepository;
  mail: MailService;
  clock: Clock;
  hasher: TokenHasher;
}) {
  const { db, repository, mail, clock, hasher } = deps;
  const otpHash = (email: string, otp: string) => hasher.hash(`otp:${email}`, otp);
  const attemptOtp = createOtpAttempts({ db, repository, clock });

  async function assertNotLocked(email: string): Promise<void> {
    const until = await repository.lockedUntil(email);
    if (until && until > clock.now()) throw businessRule('OTP_LOCKED', MESSAGES.otpLocked);
  }

  async function issueOtp(email: string, purpose: OtpPurpose, userName: string | null): Promise<void> {
    await assertNotLocked(email);
    const now = clock.now();
    const sentLastHour = await repository.countSendsSince(email, new Date(now.getTime() - HOUR));
    if (sentLastHour >= OTP.maxSendsPerHour) throw tooManyRequests('OTP_RESEND_LIMIT', MESSAGES.otpResendLimit);

    const otp = generateOtp();
    const mailId = await db.transaction(async (tx) => {
      await repository.replaceChallenge(
        {
          email,
          purpose,
          userName,
          otpHash: otpHash(email, otp),
          expiresAt: new Date(now.getTime() + OTP.validMinutes * MINUTE),
          createdAt: now,
        },
        tx,
      );
      return mail.enqueue(otpMail(email, otp, purpose, userName), tx, 'otp');
    });
    await mail.dispatch(mailId, 'otp');
  }

  return {
    otpHash,
    attemptOtp,
    issueOtp,

    /**
     * The sign-in OTP rules for approvals outside sign-in (a cluster deletion, a staff four-eyes action): the same OTP, hashing,
     * attempt counting and daily lock, under a key the caller chooses so approvals and sign-in never lock each other.
     */
    approvalOtp: {
      generate: generateOtp,
      hash: (key: string, otp: string) => otpHash(key, otp),
      matches: (key: string, otp: string, hash: string) => hashesEqual(hash, otpHash(key, otp)),
      /**
       * One attempt as one atomic step: the lock of `lockKey` checked, `compare` run (it compares, and on a match
       * does the approved work in the same transaction), the attempt counted and the lock set when due.
       */
      attempt: <T>(lockKey: string, compare: (tx: Tx) => Promise<OtpComparison<T>>) => attemptOtp(lockKey, compare),
      assertNotLocked,
    },
  };
}

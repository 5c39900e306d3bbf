import { MESSAGES, OTP } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { HOUR, endOfUtcDay } from '../../clock.js';
import type { Database, DbOrTx, Tx } from '../../db/client.js';
import { businessRule } from '../../errors.js';
import type { AuthRepository } from './auth.repository.js';

/** What comparing an OTP found: a match (and what the caller did with it, in the same transaction), or none. */
export type OtpComparison<T> = { matched: true; value: T } | { matched: false };

type Outcome<T> = { kind: 'locked' } | { kind: 'failed'; lockedNow: boolean } | { kind: 'passed'; value: T };

/** The lock rule: OTP.maxInvalidAttempts wrong ones in a row, or as many within an hour, lock the key for the rest of the UTC day. */
async function lockIsDue(repository: AuthRepository, key: string, now: Date, tx: DbOrTx): Promise<boolean> {
  const recent = await repository.recentAttempts(key, 50, tx);
  const consecutive = recent.slice(0, OTP.maxInvalidAttempts);
  const byStreak = consecutive.length === OTP.maxInvalidAttempts && consecutive.every((attempt) => !attempt.succeeded);
  const lastHour = recent.filter((attempt) => !attempt.succeeded && attempt.createdAt.getTime() > now.getTime() - HOUR).length;
  return byStreak || lastHour >= OTP.maxInvalidAttempts;
}

/**
 * One OTP attempt as one atomic step per key (an e-mail at sign-in, the typing person for an approval): the key's
 * lock row is locked first, so attempts on one key from every process of the portal run one after another; then,
 * in the same transaction, the lock is checked, the OTP compared (`compare`, which also does what a match allows)
 * and the attempt counted. A wrong OTP after the lock is never compared.
 */
export function createOtpAttempts(deps: { db: Database; repository: AuthRepository; clock: Clock }) {
  const { db, repository, clock } = deps;
  return async function attempt<T>(key: string, compare: (tx: Tx) => Promise<OtpComparison<T>>): Promise<T> {
    const outcome = await db.transaction(async (tx): Promise<Outcome<T>> => {
      const now = clock.now();
      if ((await repository.lockKeyForAttempt(key, tx)) > now) return { kind: 'locked' };
      const comparison = await compare(tx);
      await repository.recordAttempt(key, comparison.matched, now, tx);
      if (comparison.matched) return { kind: 'passed', value: comparison.value };
      const lockedNow = await lockIsDue(repository, key, now, tx);
      if (lockedNow) await repository.lock(key, endOfUtcDay(now), tx);
      return { kind: 'failed', lockedNow };
    });
    // Thrown after the commit: the wrong attempt and the lock it caused must stay recorded.
    if (outcome.kind === 'passed') return outcome.value;
    if (outcome.kind === 'locked' || outcome.lockedNow) throw businessRule('OTP_LOCKED', MESSAGES.otpLocked);
    throw businessRule('OTP_INVALID', MESSAGES.otpInvalid);
  };
}

/**
 * The one owner of balances. Every change is an append-only entry with a unique idempotency key, made in
 * one transaction that holds the subscription's row lock, so the stored balance always equals the sum of
 * its entries (posting.ts). Free credits are spent before paid funds, earliest-expiring first, and expire after
 * 30 days. The service is put together from its use cases, each taking only what it uses: money in (funds-in.ts),
 * money out (funds-out.ts), paid funds and their transfer (paid-funds.ts), the scheduled expiry (credit-expiry.ts)
 * and the reads (ledger-reads.ts).
 */
import { MESSAGES } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { badRequest } from '../../errors.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { LEDGER_EXPIRE_QUEUE, createCreditExpiry } from './credit-expiry.js';
import { createFundsIn } from './funds-in.js';
import { createFundsOut } from './funds-out.js';
import { createLedgerReads } from './ledger-reads.js';
import type { LedgerRepository } from './ledger.repository.js';
import { createPaidFunds } from './paid-funds.js';
import { createPosting } from './posting.js';

export { ENTRY_KINDS, type EntryKind, type PostResult, type Posting } from './posting.js';
export { LEDGER_EXPIRE_QUEUE } from './credit-expiry.js';

export function createLedger(deps: { db: Database; repository: LedgerRepository; clock: Clock }) {
  const { db, repository, clock } = deps;
  const posting = createPosting(deps);
  const { inTransaction } = posting;

  return {
    /** The account's money settings row; created with its first subscription. */
    ensureAccount: (accountId: string, tx?: Tx) => repository.ensureAccount(accountId, clock.now(), tx),
    lockAccount: (accountId: string, tx: Tx) => repository.lockAccount(accountId, tx),
    overdueLimit: (accountId: string, tx?: Tx) => repository.overdueLimit(accountId, tx),

    async setOverdueLimit(accountId: string, limitCents: number, tx?: Tx): Promise<void> {
      if (!Number.isSafeInteger(limitCents) || limitCents < 0) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      await inTransaction(tx, async (tx) => {
        await repository.ensureAccount(accountId, clock.now(), tx);
        await repository.setOverdueLimit(accountId, limitCents, tx);
      });
    },

    /** Takes the subscription's row lock in the caller's transaction: the lock every balance change of it waits for. */
    lockSubscription: async (subscriptionId: string, tx: Tx): Promise<void> => {
      await repository.lockSubscription(subscriptionId, tx);
    },

    ...createFundsIn({ repository, posting }),
    ...createFundsOut({ repository, posting }),
    ...createPaidFunds({ repository, posting, clock }),
    expireDueCredits: createCreditExpiry({ db, repository, posting, clock }),
    ...createLedgerReads({ repository, clock }),
  };
}
export type Ledger = ReturnType<typeof createLedger>;

export function ledgerJobs(ledger: Ledger): JobDefinition[] {
  return [
    {
      queue: LEDGER_EXPIRE_QUEUE,
      retryLimit: 0,
      retryDelaySeconds: 60,
      // Every minute: balances drop by expired credits within a minute even when nothing else touches them.
      schedule: '* * * * *',
      handler: async () => {
        await ledger.expireDueCredits();
      },
    },
  ];
}

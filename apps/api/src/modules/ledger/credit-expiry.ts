import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { LedgerRepository } from './ledger.repository.js';
import type { LedgerPosting } from './posting.js';

export const LEDGER_EXPIRE_QUEUE = 'ledger-expire-credits';
const EXPIRY_BATCH = 200;

/** The scheduled expiry of free credits, for subscriptions nothing else touches when their grants fall due. */
export function createCreditExpiry(deps: {
  db: Database;
  repository: Pick<LedgerRepository, 'subscriptionsWithDueGrants' | 'lockSubscription' | 'setBalance'>;
  posting: Pick<LedgerPosting, 'expireDue'>;
  clock: Clock;
}) {
  const { db, repository, clock } = deps;
  const { expireDue } = deps.posting;

  /** Runs the expiry of every grant that is due (the scheduled job); returns how many subscriptions it touched. */
  return async function expireDueCredits(): Promise<number> {
    let touched = 0;
    for (;;) {
      const due = await repository.subscriptionsWithDueGrants(clock.now(), EXPIRY_BATCH);
      for (const subscriptionId of due) {
        await db.transaction(async (tx) => {
          const subscription = await repository.lockSubscription(subscriptionId, tx);
          if (!subscription) return;
          const { balance } = await expireDue(subscription.id, subscription.balanceCents, clock.now(), tx);
          if (balance !== subscription.balanceCents) await repository.setBalance(subscription.id, balance, tx);
        });
      }
      touched += due.length;
      if (due.length < EXPIRY_BATCH) return touched;
    }
  };
}

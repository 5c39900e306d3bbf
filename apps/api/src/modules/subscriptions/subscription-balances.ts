import { eq } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { subscriptions } from './subscriptions.schema.js';

/**
 * The balance column of a subscription, for the ledger (its only writer): the row lock that orders every balance
 * change of the subscription, and the write of the new balance. Both run in the ledger's transaction.
 */
export function createSubscriptionBalances(db: Database) {
  return {
    /** SELECT … FOR UPDATE on the subscription: every balance change of it waits here for the one before. */
    async lock(subscriptionId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ id: subscriptions.id, accountId: subscriptions.accountId, balanceCents: subscriptions.balanceCents })
        .from(subscriptions)
        .where(eq(subscriptions.id, subscriptionId))
        .for('update');
      return row;
    },

    async set(subscriptionId: string, balanceCents: number, tx: DbOrTx = db): Promise<void> {
      await tx.update(subscriptions).set({ balanceCents }).where(eq(subscriptions.id, subscriptionId));
    },
  };
}
export type SubscriptionBalances = ReturnType<typeof createSubscriptionBalances>;

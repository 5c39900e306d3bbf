import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { userDirectory } from '../auth/index.js';
import { subscriptions } from './subscriptions.schema.js';

const subscriptionColumns = {
  id: subscriptions.id,
  accountId: subscriptions.accountId,
  name: subscriptions.name,
  remark: subscriptions.remark,
  type: subscriptions.type,
  status: subscriptions.status,
  balanceCents: subscriptions.balanceCents,
  activeClusterCount: subscriptions.activeClusterCount,
  createdAt: subscriptions.createdAt,
  createdByName: userDirectory.name,
  createdByEmail: userDirectory.email,
};

/** A live subscription with the person who created it. */
export interface SubscriptionRow {
  id: string;
  accountId: string;
  name: string;
  remark: string;
  type: string;
  status: string;
  balanceCents: number;
  activeClusterCount: number;
  createdAt: Date;
  createdByName: string;
  createdByEmail: string;
}

/** SQL for subscriptions. Every read is scoped to an account; deleted subscriptions are never returned. */
export function createSubscriptionsRepository(db: DbOrTx) {
  const live = (accountId: string) => and(eq(subscriptions.accountId, accountId), isNull(subscriptions.deletedAt));

  return {
    async listForAccount(accountId: string, tx: DbOrTx = db): Promise<SubscriptionRow[]> {
      return tx
        .select(subscriptionColumns)
        .from(subscriptions)
        .innerJoin(userDirectory, eq(userDirectory.id, subscriptions.createdByUserId))
        .where(live(accountId))
        .orderBy(asc(subscriptions.createdAt), asc(subscriptions.name));
    },

    async findForAccount(accountId: string, id: string, tx: DbOrTx = db): Promise<SubscriptionRow | undefined> {
      const [row] = await tx
        .select(subscriptionColumns)
        .from(subscriptions)
        .innerJoin(userDirectory, eq(userDirectory.id, subscriptions.createdByUserId))
        .where(and(live(accountId), eq(subscriptions.id, id)));
      return row;
    },

    /** Every subscription the account ever had, deleted ones included. */
    async countEverCreated(accountId: string, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(subscriptions)
        .where(eq(subscriptions.accountId, accountId));
      return row?.count ?? 0;
    },

    async nameTaken(accountId: string, name: string, tx: DbOrTx = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(live(accountId), sql`lower(${subscriptions.name}) = lower(${name})`))
        .limit(1);
      return !!row;
    },

    async insert(values: typeof subscriptions.$inferInsert, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.insert(subscriptions).values(values).returning({ id: subscriptions.id });
      return row!.id;
    },

    async lockForAccount(accountId: string, id: string, tx: DbOrTx) {
      const [row] = await tx
        .select({ id: subscriptions.id, activeClusterCount: subscriptions.activeClusterCount })
        .from(subscriptions)
        .where(and(live(accountId), eq(subscriptions.id, id)))
        .for('update');
      return row;
    },

    async markDeleted(id: string, at: Date, tx: DbOrTx): Promise<void> {
      await tx.update(subscriptions).set({ deletedAt: at, status: 'DELETED' }).where(eq(subscriptions.id, id));
    },

    /** Moves the active cluster count; false when it would go below zero or the subscription is unknown. */
    async adjustActiveClusterCount(id: string, delta: number, tx: DbOrTx = db): Promise<boolean> {
      const updated = await tx
        .update(subscriptions)
        .set({ activeClusterCount: sql`${subscriptions.activeClusterCount} + ${delta}` })
        .where(and(eq(subscriptions.id, id), sql`${subscriptions.activeClusterCount} + ${delta} >= 0`))
        .returning({ id: subscriptions.id });
      return updated.length === 1;
    },
  };
}
export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;

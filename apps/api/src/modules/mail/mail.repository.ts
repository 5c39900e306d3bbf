import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';

export type OutboxRow = typeof mailOutbox.$inferSelect;

export function createMailRepository(db: DbOrTx) {
  const claimable = (now: Date) => and(eq(mailOutbox.status, 'PENDING'), or(isNull(mailOutbox.leaseUntil), lt(mailOutbox.leaseUntil, now)));

  return {
    async insert(values: typeof mailOutbox.$inferInsert, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.insert(mailOutbox).values(values).returning({ id: mailOutbox.id });
      return row!.id;
    },

    /** Takes the delivery lease on a pending mail; undefined when it is sent or another delivery holds it. */
    async claim(id: string, now: Date, leaseUntil: Date, tx: DbOrTx = db): Promise<OutboxRow | undefined> {
      const [row] = await tx
        .update(mailOutbox)
        .set({ leaseUntil, attempts: sql`${mailOutbox.attempts} + 1` })
        .where(and(eq(mailOutbox.id, id), claimable(now)))
        .returning();
      return row;
    },

    async markSent(id: string, at: Date, tx: DbOrTx = db): Promise<void> {
      await tx.update(mailOutbox).set({ status: 'SENT', sentAt: at, leaseUntil: null, lastError: null }).where(eq(mailOutbox.id, id));
    },

    async releaseAfterFailure(id: string, error: string, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(mailOutbox)
        .set({ leaseUntil: null, lastError: error.slice(0, 500) })
        .where(eq(mailOutbox.id, id));
    },

    async listStalePending(olderThan: Date, now: Date, limit: number, tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(claimable(now), lt(mailOutbox.createdAt, olderThan)))
        .orderBy(mailOutbox.createdAt)
        .limit(limit);
      return rows.map((row) => row.id);
    },

    async listRecent(limit: number, tx: DbOrTx = db): Promise<OutboxRow[]> {
      return tx.select().from(mailOutbox).orderBy(desc(mailOutbox.seq)).limit(limit);
    },
  };
}
export type MailRepository = ReturnType<typeof createMailRepository>;

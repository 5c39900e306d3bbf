import { and, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { mailOutbox } from './mail.schema.js';

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

    /** Takes the lease on the most urgent claimable mail (highest priority, then oldest); undefined when none is waiting. */
    async claimNext(now: Date, leaseUntil: Date, tx: DbOrTx = db): Promise<OutboxRow | undefined> {
      // SKIP LOCKED in a CTE: workers delivering at the same time each take a different mail instead of
      // waiting on the same row (an `id in (subquery)` form would wait, then find it taken, and send nothing).
      const next = tx
        .$with('next')
        .as(
          tx
            .select({ nextId: mailOutbox.id })
            .from(mailOutbox)
            .where(claimable(now))
            .orderBy(desc(mailOutbox.priority), mailOutbox.createdAt, mailOutbox.seq)
            .limit(1)
            .for('update', { skipLocked: true }),
        );
      const [row] = await tx
        .with(next)
        .update(mailOutbox)
        .set({ leaseUntil, attempts: sql`${mailOutbox.attempts} + 1` })
        .from(next)
        .where(eq(mailOutbox.id, next.nextId))
        .returning();
      return row;
    },

    /**
     * Capped mail (OTP, invitations) written since `since`, in all and to one recipient domain. Called under
     * a transaction-scoped advisory lock, so concurrent requests count one another.
     */
    async countCappedSince(since: Date, domain: string, tx: DbOrTx): Promise<{ total: number; domain: number }> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('kumo:mail-cap'))`);
      const [row] = await tx
        .select({
          total: sql<number>`count(*)::int`,
          domain: sql<number>`(count(*) filter (where lower(split_part(${mailOutbox.toAddress}, '@', 2)) = ${domain}))::int`,
        })
        .from(mailOutbox)
        .where(and(ne(mailOutbox.kind, 'notification'), gt(mailOutbox.createdAt, since)));
      return { total: Number(row?.total ?? 0), domain: Number(row?.domain ?? 0) };
    },

    /** `blank`: the body is dropped with the hand-over, so no copy of what it said stays at rest. */
    async markSent(id: string, at: Date, blank: boolean, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(mailOutbox)
        .set({ status: 'SENT', sentAt: at, leaseUntil: null, lastError: null, ...(blank ? { textBody: '', htmlBody: '' } : {}) })
        .where(eq(mailOutbox.id, id));
    },
    /** Deletes mail sent before `before`; answers how many. */
    async purgeSent(before: Date, tx: DbOrTx = db): Promise<number> {
      const rows = await tx
        .delete(mailOutbox)
        .where(and(eq(mailOutbox.status, 'SENT'), lt(mailOutbox.sentAt, before)))
        .returning({ id: mailOutbox.id });
      return rows.length;
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
        .orderBy(desc(mailOutbox.priority), mailOutbox.createdAt)
        .limit(limit);
      return rows.map((row) => row.id);
    },

    async listRecent(limit: number, tx: DbOrTx = db): Promise<OutboxRow[]> {
      return tx.select().from(mailOutbox).orderBy(desc(mailOutbox.seq)).limit(limit);
    },
  };
}
export type MailRepository = ReturnType<typeof createMailRepository>;

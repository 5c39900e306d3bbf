import { and, asc, count, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { webhookAttempts, webhookDeliveries, webhooks } from './webhooks.schema.js';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;
export type DeliveryInsert = Pick<DeliveryRow, 'webhookId' | 'eventId' | 'eventKey' | 'type' | 'body' | 'createdAt' | 'nextAttemptAt'>;

/** SQL for the endpoints, their deliveries and attempts; endpoints are always scoped by account. */
export function createWebhooksRepository(db: DbOrTx) {
  return {
    async insert(row: Omit<typeof webhooks.$inferInsert, 'id'>, tx: DbOrTx = db): Promise<WebhookRow> {
      const [inserted] = await tx.insert(webhooks).values(row).returning();
      return inserted!;
    },

    /**
     * Inserts the endpoint unless its account holds `max` already (undefined then). The count and the insert are one
     * transaction under a lock on the account, so creates sent at once count one another and never pass the limit.
     */
    async insertBelow(max: number, row: Omit<typeof webhooks.$inferInsert, 'id'>): Promise<WebhookRow | undefined> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('webhooks'), hashtext(${row.accountId}))`);
        if ((await this.countOf(row.accountId, tx)) >= max) return undefined;
        return this.insert(row, tx);
      });
    },

    async countOf(accountId: string, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.accountId, accountId));
      return row?.n ?? 0;
    },

    async listOf(accountId: string, tx: DbOrTx = db): Promise<WebhookRow[]> {
      return tx.select().from(webhooks).where(eq(webhooks.accountId, accountId)).orderBy(asc(webhooks.createdAt), asc(webhooks.id));
    },

    async findOf(accountId: string, id: string, tx: DbOrTx = db): Promise<WebhookRow | undefined> {
      const [row] = await tx
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id)));
      return row;
    },

    async findById(id: string, tx: DbOrTx = db): Promise<WebhookRow | undefined> {
      const [row] = await tx.select().from(webhooks).where(eq(webhooks.id, id));
      return row;
    },

    /** Deletes the endpoint with its deliveries and attempts; false when the account has no such endpoint. */
    async delete(accountId: string, id: string, tx: DbOrTx = db): Promise<boolean> {
      const deleted = await tx
        .delete(webhooks)
        .where(and(eq(webhooks.accountId, accountId), eq(webhooks.id, id)))
        .returning({ id: webhooks.id });
      return deleted.length > 0;
    },

    /** The account's endpoints that asked for this event type. */
    async subscribedTo(accountId: string, type: string, tx: DbOrTx = db): Promise<WebhookRow[]> {
      return tx
        .select()
        .from(webhooks)
        .where(and(eq(webhooks.accountId, accountId), sql`${type} = ANY(${webhooks.events})`));
    },

    /** Queues deliveries; one per endpoint and event key, so an event written twice is sent once. The new ids. */
    async queue(rows: DeliveryInsert[], tx: DbOrTx = db): Promise<string[]> {
      if (rows.length === 0) return [];
      const inserted = await tx
        .insert(webhookDeliveries)
        .values(rows.map((row) => ({ ...row, state: 'PENDING' })))
        .onConflictDoNothing()
        .returning({ id: webhookDeliveries.id });
      return inserted.map((row) => row.id);
    },

    /**
     * Claims a due delivery for one attempt: its next attempt moves to `claimUntil`, so no other worker takes it
     * meanwhile and a worker that dies leaves it due again then.
     */
    async claim(id: string, now: Date, claimUntil: Date, tx: DbOrTx = db): Promise<DeliveryRow | undefined> {
      const [row] = await tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: claimUntil })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.state, 'PENDING'), lte(webhookDeliveries.nextAttemptAt, now)))
        .returning();
      return row;
    },

    async recordAttempt(
      deliveryId: string,
      attempt: Omit<AttemptRow, 'id' | 'deliveryId'>,
      next: { state: 'PENDING' | 'DELIVERED' | 'FAILED'; nextAttemptAt: Date | null },
      tx: DbOrTx = db,
    ): Promise<void> {
      await tx.insert(webhookAttempts).values({ deliveryId, ...attempt });
      await tx
        .update(webhookDeliveries)
        .set({ ...next, attemptCount: sql`${webhookDeliveries.attemptCount} + 1` })
        .where(eq(webhookDeliveries.id, deliveryId));
    },

    /** Deliveries due now (a lost job, a process that died mid-attempt), oldest first. */
    async dueIds(now: Date, limit: number, tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.state, 'PENDING'), lte(webhookDeliveries.nextAttemptAt, now)))
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** The newest deliveries of each endpoint, `perWebhook` at most. */
    async latestDeliveries(webhookIds: string[], perWebhook: number, tx: DbOrTx = db): Promise<DeliveryRow[]> {
      if (webhookIds.length === 0) return [];
      const ranked = tx
        .select({
          id: webhookDeliveries.id,
          rank: sql<number>`row_number() OVER (PARTITION BY ${webhookDeliveries.webhookId} ORDER BY ${webhookDeliveries.createdAt} DESC, ${webhookDeliveries.id} DESC)`.as(
            'rank',
          ),
        })
        .from(webhookDeliveries)
        .where(inArray(webhookDeliveries.webhookId, webhookIds))
        .as('ranked');
      return tx
        .select({ delivery: webhookDeliveries })
        .from(webhookDeliveries)
        .innerJoin(ranked, eq(ranked.id, webhookDeliveries.id))
        .where(lte(ranked.rank, perWebhook))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .then((rows) => rows.map((row) => row.delivery));
    },

    /** The attempts of these deliveries, newest first. */
    async attemptsOf(deliveryIds: string[], tx: DbOrTx = db): Promise<AttemptRow[]> {
      if (deliveryIds.length === 0) return [];
      return tx
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, deliveryIds))
        .orderBy(desc(webhookAttempts.at), desc(webhookAttempts.id));
    },
  };
}
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;

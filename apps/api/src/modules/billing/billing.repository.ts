import { and, asc, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountDirectory, userDirectory } from '../auth/index.js';
import { subscriptionDirectory } from '../subscriptions/index.js';
import { AUTO_TOP_UP_EVENT } from './automatic-purchases.js';
import { purchases } from './billing.schema.js';

export type PurchaseRow = typeof purchases.$inferSelect;

/** How a purchase is named in the history: by how it was paid. */
const purchaseDescription = (eventName: string) => (eventName === AUTO_TOP_UP_EVENT ? 'Automatic top-up' : 'Funds added by card');

/** A checkout the history lists apart from the ledger's entries: one that moved no money. */
export interface HistoryRow {
  id: string;
  receiptId: string | null;
  createdAt: Date;
  category: string;
  description: string;
  remark: string;
  amountCents: number;
  status: string;
}

// node-postgres returns bigint and count as text: raw values are normalised here.
const toNumber = (value: unknown) => Number(value ?? 0);
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
const receiptIdOf = (number: unknown) => `KC-${String(toNumber(number)).padStart(8, '0')}`;

/**
 * SQL for card purchases, their part of the transaction history, and receipts. The ledger's entries are
 * read and written only through the ledger service.
 */
export function createBillingRepository(db: DbOrTx) {
  return {
    async insertPurchase(values: typeof purchases.$inferInsert, tx: DbOrTx = db): Promise<PurchaseRow> {
      const [row] = await tx.insert(purchases).values(values).returning();
      return row!;
    },

    async updatePurchase(id: string, values: Partial<typeof purchases.$inferInsert>, tx: DbOrTx = db): Promise<void> {
      await tx.update(purchases).set(values).where(eq(purchases.id, id));
    },

    async findPurchase(id: string, tx: DbOrTx = db): Promise<PurchaseRow | undefined> {
      const [row] = await tx.select().from(purchases).where(eq(purchases.id, id));
      return row;
    },

    async findPurchaseForAccount(accountId: string, id: string, tx: DbOrTx = db): Promise<PurchaseRow | undefined> {
      const [row] = await tx
        .select()
        .from(purchases)
        .where(and(eq(purchases.accountId, accountId), eq(purchases.id, id)));
      return row;
    },

    async findPurchaseBySessionForAccount(accountId: string, sessionId: string, tx: DbOrTx = db): Promise<PurchaseRow | undefined> {
      const [row] = await tx
        .select()
        .from(purchases)
        .where(and(eq(purchases.accountId, accountId), eq(purchases.checkoutSessionId, sessionId)));
      return row;
    },

    /** Checkouts still waiting for the customer that were opened before the given time, oldest first. */
    async listPendingCreatedBefore(olderThan: Date, limit: number, tx: DbOrTx = db): Promise<PurchaseRow[]> {
      return tx
        .select()
        .from(purchases)
        .where(and(eq(purchases.status, 'PAYMENT_INTENT_CREATED'), lt(purchases.createdAt, olderThan)))
        .orderBy(asc(purchases.createdAt))
        .limit(limit);
    },

    /** Locks the purchase: the return, the webhook and the cancel of one checkout take turns here. */
    async lockPurchase(id: string, tx: DbOrTx): Promise<PurchaseRow | undefined> {
      const [row] = await tx.select().from(purchases).where(eq(purchases.id, id)).for('update');
      return row;
    },

    /** Locks the purchases in id order (so two lockers of overlapping sets cannot deadlock); missing ids are left out. */
    async lockPurchases(ids: string[], tx: DbOrTx): Promise<PurchaseRow[]> {
      if (ids.length === 0) return [];
      return tx.select().from(purchases).where(inArray(purchases.id, ids)).orderBy(asc(purchases.id)).for('update');
    },

    async nextReceiptId(tx: DbOrTx): Promise<string> {
      const [row] = rowsOf(await tx.execute(sql`select nextval('receipt_number_seq') as number`));
      return receiptIdOf(row?.number);
    },

    async nextReceiptIds(count: number, tx: DbOrTx): Promise<string[]> {
      if (count === 0) return [];
      const rows = rowsOf(await tx.execute(sql`select nextval('receipt_number_seq') as number from generate_series(1, ${count})`));
      return rows.map((row) => receiptIdOf(row.number));
    },

    /** Marks several purchases paid in one statement. */
    async markPaid(
      paid: { id: string; checkoutSessionId: string; ledgerEntryId: string; receiptId: string; paymentMethod: string; paidAt: Date }[],
      updatedAt: Date,
      tx: DbOrTx,
    ): Promise<void> {
      if (paid.length === 0) return;
      const rows = paid.map(
        (each) =>
          sql`(${each.id}::uuid, ${each.checkoutSessionId}, ${each.ledgerEntryId}::uuid, ${each.receiptId}, ${each.paymentMethod}, ${each.paidAt.toISOString()}::timestamptz)`,
      );
      await tx.execute(sql`
        update purchases as p
           set status = 'SUCCESSFUL', checkout_session_id = v.session_id, ledger_entry_id = v.entry_id, receipt_id = v.receipt_id,
               payment_method = v.payment_method, failure_message = null, paid_at = v.paid_at, updated_at = ${updatedAt.toISOString()}::timestamptz
          from (values ${sql.join(rows, sql`, `)}) as v(id, session_id, entry_id, receipt_id, payment_method, paid_at)
         where p.id = v.id`);
    },

    async contactOf(userId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ name: userDirectory.name, email: userDirectory.email })
        .from(userDirectory)
        .where(eq(userDirectory.id, userId));
      return row;
    },

    /** The subscription's newest `limit` checkouts that moved no money (awaiting payment, processing, failed, cancelled). */
    async unpaidCheckouts(subscriptionId: string, limit: number, tx: DbOrTx = db): Promise<HistoryRow[]> {
      const rows = await tx
        .select({
          id: purchases.id,
          receiptId: purchases.receiptId,
          createdAt: purchases.createdAt,
          category: purchases.category,
          eventName: purchases.eventName,
          remark: purchases.remark,
          amountCents: purchases.amountCents,
          status: purchases.status,
        })
        .from(purchases)
        .where(and(eq(purchases.subscriptionId, subscriptionId), ne(purchases.status, 'SUCCESSFUL')))
        .orderBy(desc(purchases.seq))
        .limit(limit);
      return rows.map(({ eventName, ...row }) => ({ ...row, description: purchaseDescription(eventName) }));
    },

    /** The paid purchases behind some of the ledger's entries, as the history shows them (by the purchase's id). */
    async paidPurchasesOfEntries(entryIds: string[], tx: DbOrTx = db) {
      if (entryIds.length === 0) return [];
      const rows = await tx
        .select({
          id: purchases.id,
          ledgerEntryId: purchases.ledgerEntryId,
          receiptId: purchases.receiptId,
          eventName: purchases.eventName,
          remark: purchases.remark,
        })
        .from(purchases)
        .where(inArray(purchases.ledgerEntryId, entryIds));
      return rows.map(({ eventName, ...row }) => ({ ...row, description: purchaseDescription(eventName) }));
    },

    /** The purchases behind ledger entries: how each top-up was paid (a card at checkout, or automatic top-up). */
    async purchasesOfEntries(entryIds: string[], tx: DbOrTx = db) {
      if (entryIds.length === 0) return [];
      return tx
        .select({ ledgerEntryId: purchases.ledgerEntryId, eventName: purchases.eventName, receiptId: purchases.receiptId })
        .from(purchases)
        .where(inArray(purchases.ledgerEntryId, entryIds));
    },

    /** Everything a receipt shows about a successful purchase. */
    /** The account's owner, named on its statements. */
    async accountOwner(accountId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ name: userDirectory.name, email: userDirectory.email })
        .from(accountDirectory)
        .innerJoin(userDirectory, eq(userDirectory.id, accountDirectory.ownerUserId))
        .where(eq(accountDirectory.id, accountId));
      return row;
    },

    async receiptOf(purchaseId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({
          subscriptionName: subscriptionDirectory.name,
          customerName: userDirectory.name,
          customerEmail: userDirectory.email,
          ledgerEntryId: purchases.ledgerEntryId,
        })
        .from(purchases)
        .innerJoin(subscriptionDirectory, eq(subscriptionDirectory.id, purchases.subscriptionId))
        .innerJoin(userDirectory, eq(userDirectory.id, purchases.userId))
        .where(eq(purchases.id, purchaseId));
      return row;
    },
  };
}
export type BillingRepository = ReturnType<typeof createBillingRepository>;

import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { ledgerEntries, purchases, subscriptions, users } from '../../db/schema.js';

export type PurchaseRow = typeof purchases.$inferSelect;

/** One row of a subscription's history: a card purchase (any status) or a ledger entry that is not one. */
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

// node-postgres returns bigint and count as text, PGlite as numbers: raw rows are normalised here.
const toNumber = (value: unknown) => Number(value ?? 0);
const toText = (value: unknown) => (typeof value === 'string' ? value : '');
const toDate = (value: unknown) => (value instanceof Date ? value : new Date(String(value)));
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/**
 * SQL for card purchases, the transaction history and receipts. The ledger's tables are only read here
 * (history and receipts); every write to them goes through the ledger service.
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

    /** Locks the purchase: the return, the webhook and the cancel of one checkout take turns here. */
    async lockPurchase(id: string, tx: DbOrTx): Promise<PurchaseRow | undefined> {
      const [row] = await tx.select().from(purchases).where(eq(purchases.id, id)).for('update');
      return row;
    },

    async nextReceiptId(tx: DbOrTx): Promise<string> {
      const [row] = rowsOf(await tx.execute(sql`select nextval('receipt_number_seq') as number`));
      return `KC-${String(toNumber(row?.number)).padStart(8, '0')}`;
    },

    async contactOf(userId: string, tx: DbOrTx = db) {
      const [row] = await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
      return row;
    },

    /** A page of the subscription's history, newest first, and how many rows it has in all. */
    async pageHistory(subscriptionId: string, page: number, size: number, tx: DbOrTx = db): Promise<{ rows: HistoryRow[]; total: number }> {
      const result = await tx.execute(sql`
        select id, receipt_id, created_at, category, description, remark, amount_cents, status from (
          select p.seq, p.id, p.receipt_id, p.created_at, p.category, 'Funds added by card' as description, p.remark, p.amount_cents, p.status
            from ${purchases} p where p.subscription_id = ${subscriptionId}
          union all
          select e.seq, e.id, null, e.created_at, e.category, e.description, e.remark, e.amount_cents, 'SUCCESSFUL'
            from ${ledgerEntries} e where e.subscription_id = ${subscriptionId} and e.kind <> 'PURCHASE'
        ) history
        order by seq desc
        limit ${size} offset ${page * size}`);
      const counted = await tx.execute(sql`
        select (select count(*) from ${purchases} where subscription_id = ${subscriptionId})
             + (select count(*) from ${ledgerEntries} where subscription_id = ${subscriptionId} and kind <> 'PURCHASE') as total`);
      return {
        rows: rowsOf(result).map((row) => ({
          id: toText(row.id),
          receiptId: typeof row.receipt_id === 'string' ? row.receipt_id : null,
          createdAt: toDate(row.created_at),
          category: toText(row.category),
          description: toText(row.description),
          remark: toText(row.remark),
          amountCents: toNumber(row.amount_cents),
          status: toText(row.status),
        })),
        total: toNumber(rowsOf(counted)[0]?.total),
      };
    },

    /** A ledger entry of one of the account's subscriptions, to tell why it has no receipt. */
    async findEntryForAccount(accountId: string, entryId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ id: ledgerEntries.id, kind: ledgerEntries.kind, category: ledgerEntries.category })
        .from(ledgerEntries)
        .innerJoin(subscriptions, eq(subscriptions.id, ledgerEntries.subscriptionId))
        .where(and(eq(subscriptions.accountId, accountId), eq(ledgerEntries.id, entryId)));
      return row;
    },

    /** Everything a receipt shows about a successful purchase. */
    async receiptOf(purchaseId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({
          subscriptionName: subscriptions.name,
          customerName: users.name,
          customerEmail: users.email,
          balanceAfterCents: ledgerEntries.balanceAfterCents,
        })
        .from(purchases)
        .innerJoin(subscriptions, eq(subscriptions.id, purchases.subscriptionId))
        .innerJoin(users, eq(users.id, purchases.userId))
        .innerJoin(ledgerEntries, eq(ledgerEntries.id, purchases.ledgerEntryId))
        .where(eq(purchases.id, purchaseId));
      return row;
    },
  };
}
export type BillingRepository = ReturnType<typeof createBillingRepository>;

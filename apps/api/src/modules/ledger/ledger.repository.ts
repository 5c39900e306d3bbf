import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { subscriptionDirectory, type SubscriptionBalances } from '../subscriptions/index.js';
import { billingAccounts, creditAllocations, creditGrants, ledgerEntries } from './ledger.schema.js';

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
export type CreditGrantRow = typeof creditGrants.$inferSelect;
export type NewLedgerEntry = Omit<typeof ledgerEntries.$inferInsert, 'id' | 'seq'>;

/**
 * The unexpired free credits of some subscriptions, in fixed text: every subscription list reads it, and building it
 * from the schema's objects on each call cost more than PostgreSQL's answer.
 */
const CREDIT_SUMMARIES_OF = sql.raw(`
  select subscription_id, coalesce(sum(remaining_cents), 0)::text as credits_cents, min(expires_at) as next_expiry
  from "credit_grants"
  where subscription_id = any(`);
const UNEXPIRED_AT = sql.raw('::uuid[]) and expired_at is null and remaining_cents > 0 and expires_at > ');
const BY_SUBSCRIPTION = sql.raw(' group by subscription_id');

/**
 * SQL for balances, entries, free-credit grants and their allocations. Only the ledger service calls it. The balance
 * itself sits on the subscription, which the subscriptions module owns: it is locked and written through `balances`.
 */
export function createLedgerRepository(db: DbOrTx, balances: SubscriptionBalances) {
  return {
    async ensureAccount(accountId: string, at: Date, tx: DbOrTx = db): Promise<void> {
      await tx.insert(billingAccounts).values({ accountId, createdAt: at }).onConflictDoNothing({ target: billingAccounts.accountId });
    },

    /** Locks the account's money settings row, serialising work that must see every subscription of the account. */
    async lockAccount(accountId: string, tx: DbOrTx) {
      const [row] = await tx.select().from(billingAccounts).where(eq(billingAccounts.accountId, accountId)).for('update');
      return row;
    },

    async overdueLimit(accountId: string, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ limit: billingAccounts.overdueLimitCents })
        .from(billingAccounts)
        .where(eq(billingAccounts.accountId, accountId));
      return row?.limit ?? 0;
    },

    async setOverdueLimit(accountId: string, limitCents: number, tx: DbOrTx = db): Promise<void> {
      await tx.update(billingAccounts).set({ overdueLimitCents: limitCents }).where(eq(billingAccounts.accountId, accountId));
    },

    /** Every balance change of the subscription waits here for the one before. */
    lockSubscription: (subscriptionId: string, tx: DbOrTx) => balances.lock(subscriptionId, tx),

    setBalance: (subscriptionId: string, balanceCents: number, tx: DbOrTx) => balances.set(subscriptionId, balanceCents, tx),

    async findEntryByKey(idempotencyKey: string, tx: DbOrTx = db): Promise<LedgerEntryRow | undefined> {
      const [row] = await tx.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, idempotencyKey));
      return row;
    },

    async findEntriesByKeys(idempotencyKeys: string[], tx: DbOrTx): Promise<LedgerEntryRow[]> {
      if (idempotencyKeys.length === 0) return [];
      return tx.select().from(ledgerEntries).where(inArray(ledgerEntries.idempotencyKey, idempotencyKeys));
    },

    /** Several entries in one statement, numbered in the order given; a key already posted is skipped (not returned). */
    async insertEntries(values: NewLedgerEntry[], tx: DbOrTx): Promise<LedgerEntryRow[]> {
      if (values.length === 0) return [];
      return tx.insert(ledgerEntries).values(values).onConflictDoNothing({ target: ledgerEntries.idempotencyKey }).returning();
    },

    async findEntry(id: string, tx: DbOrTx = db): Promise<LedgerEntryRow | undefined> {
      const [row] = await tx.select().from(ledgerEntries).where(eq(ledgerEntries.id, id));
      return row;
    },

    /** Inserts unless the idempotency key exists already; undefined then (the unique index decides, even across subscriptions). */
    async insertEntry(values: NewLedgerEntry, tx: DbOrTx): Promise<LedgerEntryRow | undefined> {
      const [row] = await tx.insert(ledgerEntries).values(values).onConflictDoNothing({ target: ledgerEntries.idempotencyKey }).returning();
      return row;
    },

    async insertGrant(values: typeof creditGrants.$inferInsert, tx: DbOrTx): Promise<void> {
      await tx.insert(creditGrants).values(values);
    },

    async insertAllocations(rows: (typeof creditAllocations.$inferInsert)[], tx: DbOrTx): Promise<void> {
      if (rows.length > 0) await tx.insert(creditAllocations).values(rows);
    },

    async setGrantRemaining(entryId: string, remainingCents: number, tx: DbOrTx): Promise<void> {
      await tx.update(creditGrants).set({ remainingCents }).where(eq(creditGrants.entryId, entryId));
    },

    async markGrantExpired(entryId: string, at: Date, tx: DbOrTx): Promise<void> {
      await tx.update(creditGrants).set({ remainingCents: 0, expiredAt: at }).where(eq(creditGrants.entryId, entryId));
    },

    /** Grants not yet expired by the expiry run, earliest-expiring first (ties in grant order). */
    async openGrants(subscriptionId: string, tx: DbOrTx): Promise<(CreditGrantRow & { seq: number })[]> {
      return tx
        .select({
          entryId: creditGrants.entryId,
          subscriptionId: creditGrants.subscriptionId,
          amountCents: creditGrants.amountCents,
          remainingCents: creditGrants.remainingCents,
          expiresAt: creditGrants.expiresAt,
          expiredAt: creditGrants.expiredAt,
          seq: ledgerEntries.seq,
        })
        .from(creditGrants)
        .innerJoin(ledgerEntries, eq(ledgerEntries.id, creditGrants.entryId))
        .where(and(eq(creditGrants.subscriptionId, subscriptionId), isNull(creditGrants.expiredAt)))
        .orderBy(asc(creditGrants.expiresAt), asc(ledgerEntries.seq));
    },

    /** Grants with credits left to spend at `now`, earliest-expiring first, with when each was granted. */
    async spendableGrants(subscriptionId: string, now: Date, tx: DbOrTx = db) {
      return tx
        .select({
          amountCents: creditGrants.amountCents,
          remainingCents: creditGrants.remainingCents,
          expiresAt: creditGrants.expiresAt,
          grantedAt: ledgerEntries.createdAt,
        })
        .from(creditGrants)
        .innerJoin(ledgerEntries, eq(ledgerEntries.id, creditGrants.entryId))
        .where(
          and(
            eq(creditGrants.subscriptionId, subscriptionId),
            isNull(creditGrants.expiredAt),
            gt(creditGrants.expiresAt, now),
            gt(creditGrants.remainingCents, 0),
          ),
        )
        .orderBy(asc(creditGrants.expiresAt), asc(ledgerEntries.seq));
    },

    /** Subscriptions holding grants whose expiry has come and not yet run. */
    async subscriptionsWithDueGrants(now: Date, limit: number, tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .selectDistinct({ subscriptionId: creditGrants.subscriptionId })
        .from(creditGrants)
        .where(and(isNull(creditGrants.expiredAt), lte(creditGrants.expiresAt, now)))
        .limit(limit);
      return rows.map((row) => row.subscriptionId);
    },

    /** Unexpired free credits and the next expiry per subscription. */
    async creditSummaries(subscriptionIds: string[], now: Date, tx: DbOrTx = db) {
      if (subscriptionIds.length === 0) return [];
      const result = await tx.execute(sql`${CREDIT_SUMMARIES_OF}${sql.param(subscriptionIds)}${UNEXPIRED_AT}${now}${BY_SUBSCRIPTION}`);
      return (result.rows as unknown as { subscription_id: string; credits_cents: string; next_expiry: string | null }[]).map((row) => ({
        subscriptionId: row.subscription_id,
        creditsCents: row.credits_cents,
        nextExpiry: row.next_expiry,
      }));
    },

    /**
     * A page of a subscription's entries, newest first, each with the balance after it; only those of `categories`
     * when given. And how many such entries there are.
     */
    async historyEntries(subscriptionId: string, page: { offset: number; limit: number; categories?: readonly string[] }, tx: DbOrTx = db) {
      const where = and(
        eq(ledgerEntries.subscriptionId, subscriptionId),
        page.categories ? inArray(ledgerEntries.category, [...page.categories]) : undefined,
      );
      const [rows, [counted]] = await Promise.all([
        tx
          .select({
            id: ledgerEntries.id,
            kind: ledgerEntries.kind,
            createdAt: ledgerEntries.createdAt,
            category: ledgerEntries.category,
            description: ledgerEntries.description,
            remark: ledgerEntries.remark,
            amountCents: ledgerEntries.amountCents,
            balanceAfterCents: ledgerEntries.balanceAfterCents,
          })
          .from(ledgerEntries)
          .where(where)
          .orderBy(desc(ledgerEntries.seq))
          .offset(page.offset)
          .limit(page.limit),
        tx
          .select({ total: sql<string>`count(*)` })
          .from(ledgerEntries)
          .where(where),
      ]);
      return { rows, total: Number(counted?.total ?? 0) };
    },

    /** Accounts with free credits left on a grant expiring after `from` and by `until`. */
    async accountsWithCreditsExpiring(from: Date, until: Date, tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .selectDistinct({ accountId: subscriptionDirectory.accountId })
        .from(creditGrants)
        .innerJoin(subscriptionDirectory, eq(subscriptionDirectory.id, creditGrants.subscriptionId))
        .where(
          and(
            isNull(creditGrants.expiredAt),
            gt(creditGrants.remainingCents, 0),
            gt(creditGrants.expiresAt, from),
            lte(creditGrants.expiresAt, until),
          ),
        );
      return rows.map((row) => row.accountId);
    },

    /** An entry of one of the account's subscriptions; another account's entry is not found. */
    async findEntryForAccount(accountId: string, entryId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({
          id: ledgerEntries.id,
          kind: ledgerEntries.kind,
          category: ledgerEntries.category,
          balanceAfterCents: ledgerEntries.balanceAfterCents,
        })
        .from(ledgerEntries)
        .innerJoin(subscriptionDirectory, eq(subscriptionDirectory.id, ledgerEntries.subscriptionId))
        .where(and(eq(subscriptionDirectory.accountId, accountId), eq(ledgerEntries.id, entryId)));
      return row;
    },

    /** A subscription's usage debits posted under the given keys, each with the cents its free-credit allocations covered. */
    async usageDebitsByKey(subscriptionId: string, keys: string[], tx: DbOrTx = db) {
      if (keys.length === 0) return [];
      const rows = await tx
        .select({
          idempotencyKey: ledgerEntries.idempotencyKey,
          freeCreditsCents: sql<string>`coalesce((select sum(${creditAllocations.amountCents}) from ${creditAllocations} where ${creditAllocations.entryId} = ${ledgerEntries.id}), 0)`,
        })
        .from(ledgerEntries)
        .where(
          and(
            eq(ledgerEntries.subscriptionId, subscriptionId),
            eq(ledgerEntries.kind, 'USAGE'),
            inArray(ledgerEntries.idempotencyKey, keys),
          ),
        );
      return rows.map((row) => ({ idempotencyKey: row.idempotencyKey, freeCreditsCents: Number(row.freeCreditsCents) }));
    },

    /** The balance before `from` and every entry of [from, to), in the order they were applied: a month's statement. */
    async periodEntries(subscriptionId: string, from: Date, to: Date, tx: DbOrTx = db) {
      const ofSubscription = eq(ledgerEntries.subscriptionId, subscriptionId);
      const [[before], entries] = await Promise.all([
        tx
          .select({ balanceAfterCents: ledgerEntries.balanceAfterCents })
          .from(ledgerEntries)
          .where(and(ofSubscription, lt(ledgerEntries.createdAt, from)))
          .orderBy(desc(ledgerEntries.seq))
          .limit(1),
        tx
          .select({
            id: ledgerEntries.id,
            kind: ledgerEntries.kind,
            category: ledgerEntries.category,
            amountCents: ledgerEntries.amountCents,
            balanceAfterCents: ledgerEntries.balanceAfterCents,
            remark: ledgerEntries.remark,
            idempotencyKey: ledgerEntries.idempotencyKey,
            createdAt: ledgerEntries.createdAt,
            expiresAt: creditGrants.expiresAt,
          })
          .from(ledgerEntries)
          .leftJoin(creditGrants, eq(creditGrants.entryId, ledgerEntries.id))
          .where(and(ofSubscription, gte(ledgerEntries.createdAt, from), lt(ledgerEntries.createdAt, to)))
          .orderBy(asc(ledgerEntries.seq)),
      ]);
      return { openingCents: before?.balanceAfterCents ?? 0, entries };
    },

    /** Money already refunded from one purchase entry, as a positive number of cents. */
    async refundedFrom(purchaseEntryId: string, tx: DbOrTx): Promise<number> {
      const [row] = await tx
        .select({ refunded: sql<string>`coalesce(-sum(${ledgerEntries.amountCents}), 0)` })
        .from(ledgerEntries)
        .where(eq(ledgerEntries.refundOfEntryId, purchaseEntryId));
      return Number(row?.refunded ?? 0);
    },
  };
}
export type LedgerRepository = ReturnType<typeof createLedgerRepository>;

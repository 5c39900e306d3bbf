/** The ledger's tables: per-account money settings, the append-only entries, free-credit grants and their allocations (docs/money.md). */
import { sql } from 'drizzle-orm';
import { check, index, pgSequence, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, cents, moneyEventSeq } from '../../db/columns.js';

/** One order for ledger entries and purchases together (billing's purchases draw from it too): the transaction history sorts by it. */
export const moneyEventOrder = pgSequence('money_event_seq');

/** Per-account money settings; the row appears with the account's first subscription. */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    accountId: uuid('account_id').primaryKey(),
    /** How far below zero a balance may go, in cents (0 unless staff raise it). */
    overdueLimitCents: cents('overdue_limit_cents').notNull().default(0),
    createdAt: at('created_at').notNull(),
  },
  (table) => [check('billing_accounts_overdue_limit_check', sql`${table.overdueLimitCents} >= 0`)],
);

/** The append-only ledger: every change of a balance is one row here (a trigger refuses updates and deletes). */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order; within a subscription it is the order the entries were applied in (they are written under its lock). */
    seq: moneyEventSeq(),
    subscriptionId: uuid('subscription_id').notNull(),
    kind: text('kind').notNull(),
    category: text('category').notNull(),
    /** Signed: money in is positive, money out negative. */
    amountCents: cents('amount_cents').notNull(),
    balanceAfterCents: cents('balance_after_cents').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    description: text('description').notNull(),
    remark: text('remark').notNull().default(''),
    /** For a refund: the purchase entry it returns money from. */
    refundOfEntryId: uuid('refund_of_entry_id'),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    uniqueIndex('ledger_entries_idempotency_key_idx').on(table.idempotencyKey),
    index('ledger_entries_subscription_idx').on(table.subscriptionId, table.seq),
    index('ledger_entries_refund_of_idx')
      .on(table.refundOfEntryId)
      .where(sql`refund_of_entry_id is not null`),
    check('ledger_entries_amount_check', sql`${table.amountCents} <> 0`),
  ],
);

/** Free credits, one row per grant entry; `remaining_cents` is what its allocations have left. */
export const creditGrants = pgTable(
  'credit_grants',
  {
    entryId: uuid('entry_id')
      .primaryKey()
      .references(() => ledgerEntries.id),
    subscriptionId: uuid('subscription_id').notNull(),
    amountCents: cents('amount_cents').notNull(),
    remainingCents: cents('remaining_cents').notNull(),
    expiresAt: at('expires_at').notNull(),
    /** Set when the expiry ran, whether or not anything was left. */
    expiredAt: at('expired_at'),
  },
  (table) => [
    index('credit_grants_open_idx')
      .on(table.subscriptionId, table.expiresAt)
      .where(sql`expired_at is null`),
    index('credit_grants_due_idx')
      .on(table.expiresAt)
      .where(sql`expired_at is null`),
    check('credit_grants_remaining_check', sql`${table.remainingCents} >= 0 and ${table.remainingCents} <= ${table.amountCents}`),
  ],
);

/** Which grants a usage or expiry entry drew from, and how much (append-only like the entries). */
export const creditAllocations = pgTable(
  'credit_allocations',
  {
    entryId: uuid('entry_id')
      .notNull()
      .references(() => ledgerEntries.id),
    grantEntryId: uuid('grant_entry_id')
      .notNull()
      .references(() => creditGrants.entryId),
    amountCents: cents('amount_cents').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.entryId, table.grantEntryId] }),
    index('credit_allocations_grant_idx').on(table.grantEntryId),
    check('credit_allocations_amount_check', sql`${table.amountCents} > 0`),
  ],
);

/** The billing module's tables: card purchases and their receipt numbers. */
import { sql } from 'drizzle-orm';
import { check, index, pgSequence, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, cents, moneyEventSeq } from '../../db/columns.js';

/** Receipt numbers, handed out when a card payment succeeds. */
export const receiptNumbers = pgSequence('receipt_number_seq', { startWith: 1000 });

/** A customer's attempt to add funds by card, from checkout to its outcome. */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: moneyEventSeq(),
    accountId: uuid('account_id').notNull(),
    subscriptionId: uuid('subscription_id').notNull(),
    userId: uuid('user_id').notNull(),
    gateway: text('gateway').notNull(),
    checkoutSessionId: text('checkout_session_id'),
    checkoutUrl: text('checkout_url'),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    eventName: text('event_name').notNull(),
    category: text('category').notNull(),
    remark: text('remark').notNull().default(''),
    /** PAYMENT_INTENT_CREATED, PROCESSING, SUCCESSFUL, FAILED or CANCELLED. */
    status: text('status').notNull(),
    failureMessage: text('failure_message'),
    paymentMethod: text('payment_method'),
    ledgerEntryId: uuid('ledger_entry_id'),
    receiptId: text('receipt_id'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    paidAt: at('paid_at'),
  },
  (table) => [
    uniqueIndex('purchases_checkout_session_idx').on(table.checkoutSessionId),
    uniqueIndex('purchases_receipt_idx').on(table.receiptId),
    index('purchases_subscription_idx').on(table.subscriptionId, table.seq),
    index('purchases_pending_idx')
      .on(table.createdAt)
      .where(sql`status = 'PAYMENT_INTENT_CREATED'`),
    check('purchases_amount_check', sql`${table.amountCents} > 0`),
  ],
);

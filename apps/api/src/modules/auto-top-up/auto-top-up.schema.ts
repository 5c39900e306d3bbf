/** The automatic top-up module's tables: settings and saved card per subscription, and its charges, one per hour. */
import { boolean, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at, cents } from '../../db/columns.js';

export const autoTopUps = pgTable('auto_top_ups', {
  /** One per subscription (foreign key to subscriptions kept by the migration). */
  subscriptionId: uuid('subscription_id').primaryKey(),
  accountId: uuid('account_id').notNull(),
  enabled: boolean('enabled').notNull(),
  thresholdCents: cents('threshold_cents').notNull(),
  topUpCents: cents('top_up_cents').notNull(),
  monthlyCapCents: cents('monthly_cap_cents').notNull(),
  /** OFF, ACTIVE or PAUSED_AFTER_FAILURE. */
  status: text('status').notNull(),
  /** The payment provider's customer of this subscription, made with its first card and reused after. */
  customerId: text('customer_id'),
  /** The card-saving session the customer was last sent to, read back on return or by the provider's notification. */
  setupSessionId: text('setup_session_id'),
  paymentMethodId: text('payment_method_id'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  cardExpMonth: integer('card_exp_month'),
  cardExpYear: integer('card_exp_year'),
  /** The UTC month (YYYY-MM) the owner was told the monthly cap stopped a top-up: once a month. */
  capNoticeMonth: text('cap_notice_month'),
  updatedAt: at('updated_at').notNull(),
});

export const autoTopUpCharges = pgTable('auto_top_up_charges', {
  /** `auto-top-up:{subscriptionId}:{hour}`: the provider's Idempotency-Key and the ledger's, so an hour charges once. */
  idempotencyKey: text('idempotency_key').primaryKey(),
  subscriptionId: uuid('subscription_id').notNull(),
  /** The UTC month, as YYYY-MM, the charge counts against the monthly cap in. */
  month: text('month').notNull(),
  amountCents: cents('amount_cents').notNull(),
  /** The card as it was when the charge was decided: a charge claimed is carried out, whatever changes after. */
  customerId: text('customer_id').notNull(),
  paymentMethodId: text('payment_method_id').notNull(),
  /** e.g. "Visa •••• 4242", for the receipt. */
  cardLabel: text('card_label').notNull(),
  /** PENDING (claimed, the provider not yet answered), SUCCEEDED, DECLINED or AUTHENTICATION_REQUIRED. */
  status: text('status').notNull(),
  message: text('message'),
  paymentIntentId: text('payment_intent_id'),
  createdAt: at('created_at').notNull(),
  settledAt: at('settled_at'),
});

/** The sandbox payment provider's table. */
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { at, cents } from '../../../db/columns.js';

/** The sandbox payment provider's own records: the hosted checkout pages it serves when Stripe is not configured. */
export const sandboxCheckoutSessions = pgTable('sandbox_checkout_sessions', {
  id: text('id').primaryKey(),
  /** payment: a checkout that charges; setup: one that saves a card (its reference is the subscription). */
  mode: text('mode').notNull().default('payment'),
  clientReferenceId: text('client_reference_id').notNull(),
  amountCents: cents('amount_cents').notNull(),
  currency: text('currency').notNull(),
  description: text('description').notNull(),
  customerEmail: text('customer_email'),
  successUrl: text('success_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  /** open → complete or expired, as Stripe's Checkout Sessions. */
  status: text('status').notNull(),
  paymentStatus: text('payment_status').notNull(),
  /** The last declined attempt's reason, shown on the page and reported like a payment failure. */
  lastError: text('last_error'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  cardExpMonth: integer('card_exp_month'),
  cardExpYear: integer('card_exp_year'),
  /** Setup mode: the customer the card is saved to, and the saved card (`pm_sandbox_{number}_…`). */
  customerId: text('customer_id'),
  paymentMethodId: text('payment_method_id'),
  expiresAt: at('expires_at').notNull(),
  createdAt: at('created_at').notNull(),
  completedAt: at('completed_at'),
});

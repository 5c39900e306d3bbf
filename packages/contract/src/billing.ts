import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { ADD_FUNDS } from './money.js';
import { moneySchema, purchaseAmountSchema } from './money-schemas.js';
import { remarkSchema } from './subscriptions.js';
import { freeTextSchema, plainText } from './validation.js';
import { pageQuerySchema } from './paging.js';
import { PAGE_SIZES } from './constants.js';

/** Transaction statuses (spec section 4) and how they are shown. */
export const TRANSACTION_STATUSES = ['SUCCESSFUL', 'FAILED', 'PAYMENT_INTENT_CREATED', 'PROCESSING', 'CANCELLED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const TRANSACTION_STATUS_LABELS: Record<TransactionStatus, string> = {
  SUCCESSFUL: 'Success',
  FAILED: 'Failed',
  PAYMENT_INTENT_CREATED: 'Pending',
  PROCESSING: 'Processing',
  CANCELLED: 'Cancelled',
};

/** A checkout that moved no money, shown apart from the history's entries: what it waits for, or how it ended. */
export const UNPAID_CHECKOUT_LABELS: Record<Exclude<TransactionStatus, 'SUCCESSFUL'>, string> = {
  PAYMENT_INTENT_CREATED: 'Awaiting payment',
  PROCESSING: 'Processing',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

/** Categories staff may give funds they add (the API for staff arrives with the admin area). */
export const ADMIN_FUND_CATEGORIES = ['REFUND_MAINTENANCE_COST', 'SERVICE_CREDIT', 'BILLING_ADJUSTMENT'] as const;
export type AdminFundCategory = (typeof ADMIN_FUND_CATEGORIES)[number];

export const TRANSACTION_CATEGORIES = [
  'PURCHASED',
  'FREE_CREDITS',
  'CREDITS_EXPIRED',
  'USAGE',
  'REFUND',
  'TRANSFER_IN',
  'TRANSFER_OUT',
  ...ADMIN_FUND_CATEGORIES,
] as const;
export type TransactionCategory = (typeof TRANSACTION_CATEGORIES)[number];
export const TRANSACTION_CATEGORY_LABELS: Record<TransactionCategory, string> = {
  PURCHASED: 'Purchased',
  FREE_CREDITS: 'Free Credits',
  CREDITS_EXPIRED: 'Credits Expired',
  USAGE: 'Usage',
  REFUND: 'Refund',
  TRANSFER_IN: 'Transfer In',
  TRANSFER_OUT: 'Transfer Out',
  REFUND_MAINTENANCE_COST: 'Refund Maintenance Cost',
  SERVICE_CREDIT: 'Service Credit',
  BILLING_ADJUSTMENT: 'Billing Adjustment',
};

export const isAdminFundCategory = (category: string): category is AdminFundCategory =>
  (ADMIN_FUND_CATEGORIES as readonly string[]).includes(category);

/**
 * The kinds a subscription's history can be filtered by, each a set of categories: top-ups (card and automatic),
 * usage, free credits (granted and expired), staff credits (funds staff added), transfers (in and out) and refunds.
 */
export const TRANSACTION_KINDS = ['TOP_UPS', 'USAGE', 'FREE_CREDITS', 'STAFF_CREDITS', 'TRANSFERS', 'REFUNDS'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];
export const TRANSACTION_KIND_LABELS: Record<TransactionKind, string> = {
  TOP_UPS: 'Top-ups',
  USAGE: 'Usage',
  FREE_CREDITS: 'Free credits',
  STAFF_CREDITS: 'Staff credits',
  TRANSFERS: 'Transfers',
  REFUNDS: 'Refunds',
};
export const TRANSACTION_KIND_CATEGORIES: Record<TransactionKind, readonly TransactionCategory[]> = {
  TOP_UPS: ['PURCHASED'],
  USAGE: ['USAGE'],
  FREE_CREDITS: ['FREE_CREDITS', 'CREDITS_EXPIRED'],
  STAFF_CREDITS: ADMIN_FUND_CATEGORIES,
  TRANSFERS: ['TRANSFER_IN', 'TRANSFER_OUT'],
  REFUNDS: ['REFUND'],
};

/** How many of a subscription's checkouts not paid the history lists beside its entries, newest first. */
export const UNPAID_CHECKOUTS_SHOWN = 10;

export const transactionSchema = z
  .object({
    transaction_id: z.uuid(),
    /** Set once a card payment succeeded. */
    receipt_id: z.string().nullable(),
    transaction_date: z.iso.datetime(),
    category: z.enum(TRANSACTION_CATEGORIES),
    type: z.enum(['CREDIT', 'DEBIT']),
    description: z.string(),
    remark: z.string(),
    /** Signed: money in is positive, money out negative. */
    amount: moneySchema,
    /** The subscription's balance just after this entry, as the ledger recorded it; null for a checkout not paid. */
    balance_after: moneySchema.nullable(),
    transaction_status: z.enum(TRANSACTION_STATUSES),
  })
  .meta({ id: 'Transaction' });
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionPageSchema = z
  .object({
    /** The ledger's entries, newest first: money that moved, each with the balance after it. */
    content: z.array(transactionSchema),
    totalPages: z.number().int(),
    /**
     * Checkouts that moved no money: awaiting payment, processing, failed or cancelled, the newest
     * UNPAID_CHECKOUTS_SHOWN; empty when the kind asked for is not top-ups.
     */
    unpaid_checkouts: z.array(transactionSchema),
  })
  .meta({ id: 'TransactionPage' });
export type TransactionPage = z.infer<typeof transactionPageSchema>;

/** GET /api/credit/view/credit-transactions/{id}: a page, of one kind of entry when `kind` is given. */
export const transactionQuerySchema = pageQuerySchema(PAGE_SIZES.transactions).extend({
  kind: z.enum(TRANSACTION_KINDS, { error: MESSAGES.transactionKindInvalid }).optional(),
});

/**
 * What the receipt menu of a transaction row does (decision 0007): a successful card purchase downloads its PDF,
 * funds staff added show the "cannot be downloaded" warning; free credits, usage, expiry, refunds and transfers
 * have no receipt menu, nor has any row that did not succeed.
 */
export function receiptAction(transaction: Pick<Transaction, 'category' | 'transaction_status'>): 'download' | 'admin-warning' | null {
  if (transaction.transaction_status !== 'SUCCESSFUL') return null;
  if (transaction.category === 'PURCHASED') return 'download';
  return isAdminFundCategory(transaction.category) ? 'admin-warning' : null;
}

export const purchaseRequestSchema = z
  .object({
    amount: purchaseAmountSchema,
    event_name: freeTextSchema(64).optional().default('ADD_FUNDS'),
    remark: remarkSchema.optional().default(''),
    iso_currency_code: z.literal(ADD_FUNDS.currency, { error: MESSAGES.currencyUnsupported }).optional().default(ADD_FUNDS.currency),
    subscription_id: z.uuid({ error: MESSAGES.subscriptionNotFound }),
    category: z.literal('PURCHASED', { error: MESSAGES.validationFailed }).optional().default('PURCHASED'),
  })
  .meta({ id: 'PurchaseRequest' });
export type PurchaseRequest = z.input<typeof purchaseRequestSchema>;
/** A validated purchase request: the amount in cents. */
export type PurchaseOrder = z.output<typeof purchaseRequestSchema>;

export const purchaseResponseSchema = z.object({ redirect_url: z.url() }).meta({ id: 'PurchaseResponse' });
export type PurchaseResponse = z.infer<typeof purchaseResponseSchema>;

export const paymentStatusSchema = z
  .object({
    subscription_id: z.uuid(),
    transaction_id: z.uuid(),
    amount: moneySchema,
    transaction_status: z.enum(TRANSACTION_STATUSES),
    receipt_id: z.string().nullable(),
    /** Why a payment failed, in the payment provider's words. */
    failure_message: z.string().nullable(),
  })
  .meta({ id: 'PaymentStatus' });
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

export const paymentStatusQuerySchema = z.object({ session_id: plainText(z.string().trim().min(1).max(255)) });
export const transactionIdParamsSchema = z.object({ id: z.uuid({ error: MESSAGES.transactionNotFound }) });
export const purchaseIdParamsSchema = z.object({ id: z.uuid({ error: MESSAGES.transactionNotFound }) });

/** Query of the page the payment provider returns to after a cancelled checkout. */
export const CHECKOUT_RETURN_PARAMS = {
  sessionId: 'session_id',
  subscriptionId: 'id',
  cancelledPurchase: 'cancelled_purchase',
} as const;

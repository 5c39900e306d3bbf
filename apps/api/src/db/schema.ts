import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  authProvider: text('auth_provider').notNull().default('EMAIL_OTP_AUTH'),
  /** Set for the provider's staff (SYSTEM_*); customers hold roles per account instead. */
  systemRole: text('system_role'),
  createdAt: at('created_at').notNull(),
});

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  ownerUserId: uuid('owner_user_id')
    .notNull()
    .references(() => users.id),
  createdAt: at('created_at').notNull(),
});

export const accountMembers = pgTable(
  'account_members',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.userId] }), index('account_members_user_idx').on(table.userId)],
);

export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    purpose: text('purpose').notNull(),
    /** The name given at sign-up, kept until the OTP proves the e-mail. */
    userName: text('user_name'),
    otpHash: text('otp_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [index('otp_challenges_email_idx').on(table.email, table.createdAt)],
);

export const otpAttempts = pgTable(
  'otp_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    succeeded: boolean('succeeded').notNull(),
    /** Insertion order: attempts within the same instant still have a "latest". */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [index('otp_attempts_email_idx').on(table.email, table.createdAt)],
);

export const authLocks = pgTable('auth_locks', {
  email: text('email').primaryKey(),
  lockedUntil: at('locked_until').notNull(),
});

/** One signed-in session: the family every rotated refresh token belongs to. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    accountId: uuid('account_id').references(() => accounts.id),
    createdAt: at('created_at').notNull(),
    revokedAt: at('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => sessions.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [uniqueIndex('refresh_tokens_hash_idx').on(table.tokenHash)],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    /** Insertion order, for "newest first" listings. */
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    /** PENDING until a transport accepted it, then SENT. */
    status: text('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    /** Held by one delivery at a time, so two workers never send the same mail at once. */
    leaseUntil: at('lease_until'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    sentAt: at('sent_at'),
  },
  (table) => [
    index('mail_outbox_pending_idx')
      .on(table.createdAt)
      .where(sql`status = 'PENDING'`),
  ],
);

export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: at('created_at').notNull(),
});

/** An e-mailed invitation to join an account; accepting it creates the membership. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    email: text('email').notNull(),
    userName: text('user_name').notNull(),
    role: text('role').notNull(),
    /** Subscriptions a Cluster Member gets access to. */
    subscriptionIds: uuid('subscription_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    tokenHash: text('token_hash').notNull(),
    invitedByUserId: uuid('invited_by_user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [uniqueIndex('invitations_token_idx').on(table.tokenHash), index('invitations_account_idx').on(table.accountId)],
);

/** Which subscriptions of an account a Cluster Member may use. */
export const memberSubscriptions = pgTable(
  'member_subscriptions',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    subscriptionId: uuid('subscription_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.userId, table.subscriptionId] })],
);

// ---- Money: subscriptions, the ledger, card purchases (docs/money.md) ----

const cents = (name: string) => bigint(name, { mode: 'number' });

/** One order for ledger entries and purchases together: the transaction history sorts by it. */
export const moneyEventOrder = pgSequence('money_event_seq');
const moneyEventSeq = () =>
  bigint('seq', { mode: 'number' })
    .notNull()
    .default(sql`nextval('money_event_seq')`);

/** Per-account money settings; the row appears with the account's first subscription. */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    accountId: uuid('account_id')
      .primaryKey()
      .references(() => accounts.id),
    /** How far below zero a balance may go, in cents (0 unless staff raise it). */
    overdueLimitCents: cents('overdue_limit_cents').notNull().default(0),
    createdAt: at('created_at').notNull(),
  },
  (table) => [check('billing_accounts_overdue_limit_check', sql`${table.overdueLimitCents} >= 0`)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    remark: text('remark').notNull().default(''),
    type: text('type').notNull().default('PREPAID'),
    status: text('status').notNull().default('ACTIVE'),
    /** The sum of this subscription's ledger entries; written only by the ledger, under this row's lock. */
    balanceCents: cents('balance_cents').notNull().default(0),
    /** Kept up to date by the clusters module through the subscriptions service; deletion is refused above zero. */
    activeClusterCount: integer('active_cluster_count').notNull().default(0),
    createdByUserId: uuid('created_by_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: at('created_at').notNull(),
    deletedAt: at('deleted_at'),
  },
  (table) => [
    index('subscriptions_account_idx').on(table.accountId, table.createdAt),
    uniqueIndex('subscriptions_account_name_idx')
      .on(table.accountId, sql`lower(${table.name})`)
      .where(sql`deleted_at is null`),
    check('subscriptions_active_cluster_count_check', sql`${table.activeClusterCount} >= 0`),
  ],
);

/** The append-only ledger: every change of a balance is one row here (a trigger refuses updates and deletes). */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Insertion order; within a subscription it is the order the entries were applied in (they are written under its lock). */
    seq: moneyEventSeq(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
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
    createdByUserId: uuid('created_by_user_id').references(() => users.id),
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
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
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

/** Receipt numbers, handed out when a card payment succeeds. */
export const receiptNumbers = pgSequence('receipt_number_seq', { startWith: 1000 });

/** A customer's attempt to add funds by card, from checkout to its outcome. */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: moneyEventSeq(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
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
    ledgerEntryId: uuid('ledger_entry_id').references(() => ledgerEntries.id),
    receiptId: text('receipt_id'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    paidAt: at('paid_at'),
  },
  (table) => [
    uniqueIndex('purchases_checkout_session_idx').on(table.checkoutSessionId),
    uniqueIndex('purchases_receipt_idx').on(table.receiptId),
    index('purchases_subscription_idx').on(table.subscriptionId, table.seq),
    check('purchases_amount_check', sql`${table.amountCents} > 0`),
  ],
);

/** The sandbox payment provider's own records: the hosted checkout pages it serves when Stripe is not configured. */
export const sandboxCheckoutSessions = pgTable('sandbox_checkout_sessions', {
  id: text('id').primaryKey(),
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
  expiresAt: at('expires_at').notNull(),
  createdAt: at('created_at').notNull(),
  completedAt: at('completed_at'),
});

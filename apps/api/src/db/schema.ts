import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  smallint,
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
  /** Preview release (staff toggle): preview Kumo versions are offered at deployment. */
  kumoEaVersionEnabled: boolean('kumo_ea_version_enabled').notNull().default(false),
  /** Whether the customer lets the provider's staff into their manager tool (spec section 3, admin_access). */
  kmAdminAccess: boolean('km_admin_access').notNull().default(false),
  /** The customer's manager role: Integration (standard) or Administrator; never back to standard. */
  kmUserRole: text('km_user_role').notNull().default('Integration'),
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

/**
 * Rate-limit counters shared by every process of the portal: one row per limited route and client address, the
 * hits of its current window (an UNLOGGED table: counters need no crash safety, and skip the write-ahead log).
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: at('window_ends_at').notNull(),
  },
  (table) => [index('rate_limit_hits_window_idx').on(table.windowEndsAt)],
);

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
    /** A staff member viewing the customer's console (userSwitched): the session is theirs, read-only, in the customer's name. */
    actingUserId: uuid('acting_user_id').references(() => users.id),
    /** When the session ends by itself (a customer view); NULL for sign-ins, which end by logout or refresh expiry. */
    expiresAt: at('expires_at'),
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

/** The customer's audit trail of what happened to the account as a whole: staff viewing its console (start and end). */
export const accountAuditLogs = pgTable(
  'account_audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    event: text('event').notNull(),
    description: text('description').notNull(),
    actorUserId: uuid('actor_user_id').references(() => users.id),
    /** Who did it as shown: a name and e-mail. */
    actorLabel: text('actor_label').notNull(),
    /** The customer-view session the entry belongs to. */
    sessionId: uuid('session_id').references(() => sessions.id),
    createdAt: at('created_at').notNull(),
  },
  (table) => [index('account_audit_logs_account_idx').on(table.accountId, table.createdAt, table.seq)],
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
    /** otp, invitation or notification: the first two are capped per minute and per recipient domain. */
    kind: text('kind').notNull().default('notification'),
    /** Higher is delivered first: OTP mail never waits behind other mail. */
    priority: smallint('priority').notNull().default(0),
  },
  (table) => [
    index('mail_outbox_pending_idx')
      .on(table.createdAt)
      .where(sql`status = 'PENDING'`),
    index('mail_outbox_capped_idx')
      .on(table.createdAt)
      .where(sql`kind <> 'notification'`),
    index('mail_outbox_next_idx')
      .on(table.priority.desc(), table.createdAt)
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
    /** Set when the owner or an admin revokes it; its link then no longer works. */
    revokedAt: at('revoked_at'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    uniqueIndex('invitations_token_idx').on(table.tokenHash),
    index('invitations_account_idx').on(table.accountId),
    index('invitations_pending_idx')
      .on(table.accountId, table.createdAt)
      .where(sql`accepted_at is null and revoked_at is null`),
  ],
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
    index('purchases_pending_idx')
      .on(table.createdAt)
      .where(sql`status = 'PAYMENT_INTENT_CREATED'`),
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

// ---------------------------------------------------------------------------------------------
// Clusters (migration 0006)
// ---------------------------------------------------------------------------------------------

/** One node as last described by the cloud, kept for the details page. */
export interface StoredClusterNode {
  host: string;
  role: string;
  instanceType: string;
  core: number;
  nodeStatus: string;
  serviceName: string;
  serviceStatus: string;
}

export const clusters = pgTable(
  'clusters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    cloudProvider: text('cloud_provider').notNull(),
    region: text('region').notNull(),
    backupRegion: text('backup_region'),
    cidr: text('cidr').notNull(),
    kumoVersion: text('kumo_version').notNull(),
    stackName: text('stack_name').notNull(),
    /** Set once the cloud accepted the stack. */
    stackId: text('stack_id'),
    status: text('status').notNull(),
    statusUpdatedAt: at('status_updated_at').notNull(),
    capacity: integer('capacity').notNull().default(0),
    stackStatus: text('stack_status'),
    deploymentStatus: text('deployment_status'),
    nodes: jsonb('nodes').$type<StoredClusterNode[]>().notNull().default([]),
    managerUrl: text('manager_url'),
    portalUrl: text('portal_url'),
    failureReason: text('failure_reason'),
    /** The admin password sealed with the server secret until the cloud has it; then NULL. Never logged. */
    sealedPassword: text('sealed_password'),
    /** The current transition's command (start, stop, delete) has not reached the cloud yet. */
    cloudCommandPending: boolean('cloud_command_pending').notNull().default(false),
    /** Reconciling with the cloud is leased: until this instant only the holder (one claim's token) may write its result. */
    reconcileLeaseUntil: at('reconcile_lease_until'),
    reconcileLeaseHolder: text('reconcile_lease_holder'),
    createdByUserId: uuid('created_by_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: at('created_at').notNull(),
    deployedAt: at('deployed_at'),
    deletedAt: at('deleted_at'),
  },
  (table) => [
    index('clusters_account_idx').on(table.accountId, table.createdAt),
    uniqueIndex('clusters_subscription_name_idx')
      .on(table.subscriptionId, sql`lower(${table.name})`)
      .where(sql`deleted_at is null`),
    uniqueIndex('clusters_stack_name_idx').on(table.stackName),
    index('clusters_busy_idx')
      .on(table.status)
      .where(sql`status in ('DEPLOYING','STARTING','STOPPING','DELETING')`),
    check('clusters_capacity_check', sql`${table.capacity} >= 0 and ${table.capacity} <= 5`),
  ],
);

export const clusterAuditLogs = pgTable(
  'cluster_audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id),
    event: text('event').notNull(),
    description: text('description').notNull(),
    /** The person who caused it; NULL for the system or the schedule. */
    actorUserId: uuid('actor_user_id').references(() => users.id),
    /** Who caused it as shown: an e-mail, 'Schedule' or 'System'. */
    actorLabel: text('actor_label').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (table) => [index('cluster_audit_logs_cluster_idx').on(table.clusterId, table.createdAt, table.seq)],
);

/** A sensitive action waiting for the approver's OTP (customer cluster deletion). */
export const clusterOperations = pgTable(
  'cluster_operations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id),
    actionName: text('action_name').notNull(),
    requestedByUserId: uuid('requested_by_user_id')
      .notNull()
      .references(() => users.id),
    approverEmail: text('approver_email').notNull(),
    otpHash: text('otp_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    sendCount: integer('send_count').notNull().default(1),
    firstSentAt: at('first_sent_at').notNull(),
    approvedAt: at('approved_at'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [index('cluster_operations_account_idx').on(table.accountId, table.createdAt)],
);

export const clusterSchedules = pgTable('cluster_schedules', {
  clusterId: uuid('cluster_id')
    .primaryKey()
    .references(() => clusters.id),
  enabled: boolean('enabled').notNull(),
  /** IANA time zone the rules' times are in. */
  timeZone: text('time_zone').notNull(),
  rules: jsonb('rules').$type<{ day: string; action: string; time: string }[]>().notNull(),
  /** Rules due after this instant and up to now are acted on at the next check. */
  lastCheckedAt: at('last_checked_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});

/** The simulated cloud's own records: one stack per cluster and the actions asked of it (state is derived from their times). */
export const simCloudStacks = pgTable('sim_cloud_stacks', {
  stackName: text('stack_name').primaryKey(),
  stackId: text('stack_id').notNull(),
  deploymentId: text('deployment_id').notNull(),
  clusterName: text('cluster_name').notNull(),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
  fails: boolean('fails').notNull(),
  createdAt: at('created_at').notNull(),
  powerAction: text('power_action'),
  powerActionAt: at('power_action_at'),
  deleteRequestedAt: at('delete_requested_at'),
});

/** Service rates per account with the date they take effect; an account without rows pays the default rate card. */
export const serviceRates = pgTable(
  'service_rates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    dimension: text('dimension').notNull(),
    /** US dollars per unit × 10,000 (rates have up to 4 decimals). */
    rateE4: bigint('rate_e4', { mode: 'number' }).notNull(),
    freeUnits: numeric('free_units', { precision: 14, scale: 4 }).notNull().default('0'),
    effectiveFrom: at('effective_from').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    uniqueIndex('service_rates_account_dimension_idx').on(table.accountId, table.dimension, table.effectiveFrom),
    check('service_rates_rate_check', sql`${table.rateE4} >= 0 and ${table.rateE4} < 1000000`),
    check('service_rates_free_units_check', sql`${table.freeUnits} >= 0`),
  ],
);

/** The clusters metering follows: where their billable hours start and how long one lasts in real time. */
export const meteringClusters = pgTable(
  'metering_clusters',
  {
    clusterId: uuid('cluster_id')
      .primaryKey()
      .references(() => clusters.id),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    originAt: at('origin_at').notNull(),
    hourMs: bigint('hour_ms', { mode: 'number' }).notNull(),
    hasBackup: boolean('has_backup').notNull(),
    checkedUntil: at('checked_until').notNull(),
    finished: boolean('finished').notNull().default(false),
  },
  (table) => [
    index('metering_clusters_subscription_idx')
      .on(table.subscriptionId)
      .where(sql`not finished`),
    check('metering_clusters_hour_check', sql`${table.hourMs} > 0`),
  ],
);

/** One charge per (cluster, dimension, billable hour); append-only. */
export const meteringCharges = pgTable(
  'metering_charges',
  {
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id),
    dimension: text('dimension').notNull(),
    hourStart: at('hour_start').notNull(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    freeQuantity: numeric('free_quantity', { precision: 18, scale: 6 }).notNull(),
    rateE4: bigint('rate_e4', { mode: 'number' }).notNull(),
    amountCents: cents('amount_cents').notNull(),
    runId: uuid('run_id').notNull(),
    chargedAt: at('charged_at').notNull(),
  },
  (table) => [
    primaryKey({ name: 'metering_charges_pk', columns: [table.clusterId, table.dimension, table.hourStart] }),
    index('metering_charges_subscription_idx').on(table.subscriptionId, table.hourStart),
    index('metering_charges_free_idx')
      .on(table.accountId, table.dimension, table.hourStart)
      .where(sql`free_quantity > 0`),
    check('metering_charges_amount_check', sql`${table.amountCents} >= 0`),
  ],
);

/** Charges summed per subscription, day, cluster and dimension, written in the same transaction as the charges. */
export const meteringDailyRollups = pgTable(
  'metering_daily_rollups',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id),
    dimension: text('dimension').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    amountCents: cents('amount_cents').notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    freeQuantity: numeric('free_quantity', { precision: 18, scale: 6 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'metering_daily_rollups_pk', columns: [table.subscriptionId, table.day, table.clusterId, table.dimension] }),
    index('metering_daily_rollups_cluster_idx').on(table.clusterId, table.day),
  ],
);

/** Mails metering sends once (runway, overdue, credit expiry), keyed by what they are about. */
export const meteringNotices = pgTable('metering_notices', {
  key: text('key').primaryKey(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id),
  sentAt: at('sent_at').notNull(),
});

/**
 * Four-eyes admin actions: the payload is frozen when asked for (HMAC in payload_hmac, checked again on approval),
 * one OTP hash per approver (approver e-mail → hash) so the approval names who approved; single use, expiring.
 */
export const adminOperations = pgTable(
  'admin_operations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actionName: text('action_name').notNull(),
    customerUserId: uuid('customer_user_id')
      .notNull()
      .references(() => users.id),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    payloadHmac: text('payload_hmac').notNull(),
    requestedByUserId: uuid('requested_by_user_id')
      .notNull()
      .references(() => users.id),
    approverOtpHashes: jsonb('approver_otp_hashes').$type<Record<string, string>>().notNull(),
    expiresAt: at('expires_at').notNull(),
    sendCount: integer('send_count').notNull().default(1),
    firstSentAt: at('first_sent_at').notNull(),
    approvedAt: at('approved_at'),
    approvedByEmail: text('approved_by_email'),
    /** What changed, in words, once approved. */
    outcome: text('outcome'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    index('admin_operations_customer_idx').on(table.customerUserId, table.createdAt),
    index('admin_operations_pending_idx')
      .on(table.expiresAt)
      .where(sql`approved_at IS NULL`),
  ],
);

/** Charges summed per subscription, month (its first day), cluster and dimension, written with the charges. */
export const meteringMonthlyRollups = pgTable(
  'metering_monthly_rollups',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    month: date('month', { mode: 'string' }).notNull(),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id),
    dimension: text('dimension').notNull(),
    amountCents: cents('amount_cents').notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    freeQuantity: numeric('free_quantity', { precision: 18, scale: 6 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'metering_monthly_rollups_pk', columns: [table.subscriptionId, table.month, table.clusterId, table.dimension] }),
    index('metering_monthly_rollups_cluster_idx').on(table.clusterId, table.month),
  ],
);

/** Charges summed per subscription, day and dimension (all its clusters), written with the charges. */
export const meteringSubscriptionDailyRollups = pgTable(
  'metering_subscription_daily_rollups',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id),
    day: date('day', { mode: 'string' }).notNull(),
    dimension: text('dimension').notNull(),
    amountCents: cents('amount_cents').notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    freeQuantity: numeric('free_quantity', { precision: 18, scale: 6 }).notNull(),
  },
  (table) => [primaryKey({ name: 'metering_subscription_daily_rollups_pk', columns: [table.subscriptionId, table.day, table.dimension] })],
);

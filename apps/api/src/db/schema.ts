import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
    subscriptionIds: uuid('subscription_ids').array().notNull().default(sql`'{}'::uuid[]`),
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

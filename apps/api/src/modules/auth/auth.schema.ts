/** The auth module's tables: people, accounts and memberships, OTP sign-in, sessions, the account's staff trail, server secrets. */
import { bigint, boolean, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

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

export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: at('created_at').notNull(),
});

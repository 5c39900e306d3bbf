/** The users module's tables: invitations and the subscriptions a Cluster Member may use. */
import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

/** An e-mailed invitation to join an account; accepting it creates the membership. */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    email: text('email').notNull(),
    userName: text('user_name').notNull(),
    role: text('role').notNull(),
    /** Subscriptions a Cluster Member gets access to. */
    subscriptionIds: uuid('subscription_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    tokenHash: text('token_hash').notNull(),
    invitedByUserId: uuid('invited_by_user_id').notNull(),
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
    accountId: uuid('account_id').notNull(),
    userId: uuid('user_id').notNull(),
    subscriptionId: uuid('subscription_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.userId, table.subscriptionId] })],
);

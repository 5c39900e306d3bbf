/**
 * The subscriptions module's published read model (a view made by migration 0013): every subscription, deleted ones
 * included, with the balance the ledger keeps on it. Other modules join this instead of the table.
 */
import { integer, pgView, text, uuid } from 'drizzle-orm/pg-core';
import { at, cents } from '../../db/columns.js';

export const subscriptionDirectory = pgView('subscription_directory', {
  id: uuid('id').notNull(),
  accountId: uuid('account_id').notNull(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  status: text('status').notNull(),
  balanceCents: cents('balance_cents').notNull(),
  activeClusterCount: integer('active_cluster_count').notNull(),
  createdByUserId: uuid('created_by_user_id').notNull(),
  createdAt: at('created_at').notNull(),
  deletedAt: at('deleted_at'),
}).existing();

/** The subscriptions module's table. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, cents } from '../../db/columns.js';

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    name: text('name').notNull(),
    remark: text('remark').notNull().default(''),
    type: text('type').notNull().default('PREPAID'),
    status: text('status').notNull().default('ACTIVE'),
    /** The sum of this subscription's ledger entries; written only by the ledger, under this row's lock. */
    balanceCents: cents('balance_cents').notNull().default(0),
    /** Kept up to date by the clusters module through the subscriptions service; deletion is refused above zero. */
    activeClusterCount: integer('active_cluster_count').notNull().default(0),
    createdByUserId: uuid('created_by_user_id').notNull(),
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

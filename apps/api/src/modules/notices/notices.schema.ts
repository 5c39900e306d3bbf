/** The notices module's table: what each person of an account reads in the console's bell. */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

/** One notice to one person in one account; written once per key and person (`dedupe_key`), read when `read_at` is set. */
export const notices = pgTable(
  'notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    recipientUserId: uuid('recipient_user_id').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** A console path, or null. */
    link: text('link'),
    dedupeKey: text('dedupe_key').notNull(),
    createdAt: at('created_at').notNull(),
    readAt: at('read_at'),
  },
  (table) => [
    uniqueIndex('notices_recipient_key_idx').on(table.accountId, table.recipientUserId, table.dedupeKey),
    index('notices_recipient_created_idx').on(table.recipientUserId, table.accountId, table.createdAt),
    index('notices_unread_idx')
      .on(table.recipientUserId, table.accountId)
      .where(sql`${table.readAt} IS NULL`),
  ],
);

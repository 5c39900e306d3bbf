/** The HTTP layer's table: the answers kept for Idempotency-Key. */
import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at } from '../db/columns.js';

/**
 * One row per caller's scope (an account, or a staff member) and Idempotency-Key: what the first request was (a hash
 * of its method, path and body) and, once it has been answered, its status and body. A row without a status is a
 * request still being worked on; rows are kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.key] }), index('idempotency_keys_created_idx').on(table.createdAt)],
);

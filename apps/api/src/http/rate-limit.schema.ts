/** The HTTP layer's table: rate-limit counters. */
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { at } from '../db/columns.js';

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

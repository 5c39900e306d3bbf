/** The cluster SQL module's table: the query history of every cluster, kept for the history and for what counts as activity. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

export const clusterQueries = pgTable(
  'cluster_queries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** References clusters(id) through the migration: a schema file names no other owner's table. */
    clusterId: uuid('cluster_id').notNull(),
    accountId: uuid('account_id').notNull(),
    startedAt: at('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    rowCount: integer('row_count'),
    status: text('status').$type<'OK' | 'FAILED' | 'REFUSED'>().notNull(),
    source: text('source').$type<'CONSOLE' | 'ENDPOINT'>().notNull(),
    /** The person behind a console query; NULL for the endpoint, where the user is the cluster's SQL user. */
    userId: uuid('user_id'),
    userLabel: text('user_label').notNull(),
    clientAddress: text('client_address'),
    userAgent: text('user_agent'),
    query: text('query').notNull(),
    error: text('error'),
  },
  (table) => [
    index('cluster_queries_cluster_idx').on(table.clusterId, table.startedAt.desc()),
    check('cluster_queries_status_check', sql`${table.status} in ('OK', 'FAILED', 'REFUSED')`),
    check('cluster_queries_source_check', sql`${table.source} in ('CONSOLE', 'ENDPOINT')`),
  ],
);

/**
 * The cluster SQL module's tables: the query history of every cluster, kept for the history and for what counts as
 * activity, and where each AWS cluster's activity read goes on from.
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
    /** The endpoint's own id of a record pulled from it (AWS): the same record is kept once. */
    endpointRecordId: text('endpoint_record_id'),
  },
  (table) => [
    index('cluster_queries_cluster_idx').on(table.clusterId, table.startedAt.desc()),
    uniqueIndex('cluster_queries_endpoint_record_idx')
      .on(table.clusterId, table.endpointRecordId)
      .where(sql`endpoint_record_id IS NOT NULL`),
    check('cluster_queries_status_check', sql`${table.status} in ('OK', 'FAILED', 'REFUSED')`),
    check('cluster_queries_source_check', sql`${table.source} in ('CONSOLE', 'ENDPOINT')`),
  ],
);

/** Where the next read of a cluster's endpoint activity goes on from (the endpoint's cursor), per cluster. */
export const clusterSqlActivityCursors = pgTable('cluster_sql_activity_cursors', {
  /** References clusters(id) through the migration. */
  clusterId: uuid('cluster_id').primaryKey(),
  /** null: the endpoint had no record yet. */
  cursor: text('cursor'),
  /** When the endpoint was last read to the end: what auto-stop waits for before it calls the cluster idle. */
  readAt: at('read_at').notNull(),
});

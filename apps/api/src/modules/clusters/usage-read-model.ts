/**
 * What the clusters module publishes of its clusters' usage, for metering to read in its own SQL instead of the
 * clusters' tables: the views of migrations 0015 and 0034, described here so every column a reader names is typed. Which
 * events and statuses make a cluster run, stop or use nothing is decided in those views, and only there.
 */
import { bigint, boolean, integer, pgView, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** What a cluster uses: nodes running (compute and storage), stopped (storage only), or nothing. */
export type ClusterUsage = 'running' | 'stopped' | 'none';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One row per cluster, deleted ones included: what a bill names, and what the cluster uses now by its status. */
export const clusterDirectory = pgView('cluster_directory', {
  clusterId: uuid('cluster_id').notNull(),
  accountId: uuid('account_id').notNull(),
  subscriptionId: uuid('subscription_id').notNull(),
  name: text('name').notNull(),
  status: text('status').notNull(),
  statusUpdatedAt: at('status_updated_at').notNull(),
  hasBackup: boolean('has_backup').notNull(),
  createdAt: at('created_at').notNull(),
  deletedAt: at('deleted_at'),
  usage: text('usage').$type<ClusterUsage>().notNull(),
  size: text('size').notNull(),
  queryEngines: integer('query_engines').notNull(),
}).existing();

/**
 * Each change of what a cluster uses, from its audit log: the usage from `changedAt` on, in written order (`seq`
 * breaks ties); `deleted` marks the deletion, after which nothing is used again. Rows are stamped before their
 * transaction commits, so one may appear a little after its time has passed.
 */
export const clusterUsageChanges = pgView('cluster_usage_changes', {
  clusterId: uuid('cluster_id').notNull(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  changedAt: at('changed_at').notNull(),
  usage: text('usage').$type<ClusterUsage>().notNull(),
  deleted: boolean('deleted').notNull(),
  /** The query engines' cores from `changedAt` on (migration 0036): what a running stretch charges. */
  queryEngineCores: integer('query_engine_cores').notNull(),
}).existing();

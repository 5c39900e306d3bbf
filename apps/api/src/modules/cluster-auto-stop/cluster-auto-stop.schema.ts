/** The auto-stop module's tables: each cluster's idle setting and restart choice, and the stops the system made. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

/** Why the system stopped a cluster: idle auto-stop, the overdue guard, or a budget's hard cap. */
export type SystemStopCause = 'IDLE' | 'OVERDUE' | 'BUDGET_CAP';

/** A cluster without a row has auto-stop off (the clusters made before it existed); new clusters get one at creation. */
export const clusterAutoStopSettings = pgTable(
  'cluster_auto_stop_settings',
  {
    /** References clusters(id) through the migration: a schema file names no other owner's table. */
    clusterId: uuid('cluster_id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    /** NULL: off. */
    idleMinutes: integer('idle_minutes'),
    restartWhenFunded: boolean('restart_when_funded').notNull().default(false),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [
    check('cluster_auto_stop_settings_idle_check', sql`${table.idleMinutes} IS NULL OR ${table.idleMinutes} BETWEEN 10 AND 1440`),
  ],
);

/** Each stop the system made for a rule; open (ended_at NULL) until the cluster is asked to start or be deleted. */
export const clusterSystemStops = pgTable(
  'cluster_system_stops',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clusterId: uuid('cluster_id').notNull(),
    accountId: uuid('account_id').notNull(),
    cause: text('cause').$type<SystemStopCause>().notNull(),
    reason: text('reason').notNull(),
    stoppedAt: at('stopped_at').notNull(),
    endedAt: at('ended_at'),
    /** Set when restart when funded started the cluster again. */
    restartedAt: at('restarted_at'),
  },
  (table) => [
    uniqueIndex('cluster_system_stops_open_idx')
      .on(table.clusterId)
      .where(sql`ended_at IS NULL`),
    index('cluster_system_stops_cluster_idx').on(table.clusterId, table.stoppedAt),
    check('cluster_system_stops_cause_check', sql`${table.cause} in ('IDLE', 'OVERDUE', 'BUDGET_CAP')`),
  ],
);

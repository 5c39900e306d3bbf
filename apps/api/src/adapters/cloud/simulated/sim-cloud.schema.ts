/** The simulated cloud's table. */
import { boolean, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { at } from '../../../db/columns.js';

/** The simulated cloud's own records: one stack per cluster and the actions asked of it (state is derived from their times). */
export const simCloudStacks = pgTable('sim_cloud_stacks', {
  stackName: text('stack_name').primaryKey(),
  stackId: text('stack_id').notNull(),
  deploymentId: text('deployment_id').notNull(),
  clusterName: text('cluster_name').notNull(),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
  fails: boolean('fails').notNull(),
  createdAt: at('created_at').notNull(),
  powerAction: text('power_action'),
  powerActionAt: at('power_action_at'),
  deleteRequestedAt: at('delete_requested_at'),
  /** The SQL endpoint's users, kept only as slow hashes (sim-sql-credentials.ts): the customer's and the portal's. */
  sqlPasswordHash: text('sql_password_hash'),
  sqlPortalHash: text('sql_portal_hash'),
  /** The query engines now asked for, and the shape the last resize started from (its steps follow from resized_at). */
  engineType: text('engine_type').notNull().default('r6i.4xlarge'),
  engineCount: integer('engine_count').notNull().default(5),
  resizeFromType: text('resize_from_type'),
  resizeFromCount: integer('resize_from_count'),
  resizedAt: at('resized_at'),
});

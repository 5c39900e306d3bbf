/** The view the cluster SQL module publishes (made by migration 0030): its queries that count as activity. */
import { pgView, text, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

/** Published to auto-stop: the queries that count as activity (a refused attempt does not). */
export const clusterQueryActivity = pgView('cluster_query_activity', {
  clusterId: uuid('cluster_id').notNull(),
  startedAt: at('started_at').notNull(),
  source: text('source').$type<'CONSOLE' | 'ENDPOINT'>().notNull(),
  userLabel: text('user_label').notNull(),
  clientAddress: text('client_address'),
  userAgent: text('user_agent'),
}).existing();

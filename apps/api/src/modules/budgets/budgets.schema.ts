/** The budgets module's tables: a budget per subscription, and the alerts it sent (each once per month and kind). */
import { boolean, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { at, cents } from '../../db/columns.js';

export const budgets = pgTable('budgets', {
  /** One budget per subscription (foreign key to subscriptions kept by the migration). */
  subscriptionId: uuid('subscription_id').primaryKey(),
  accountId: uuid('account_id').notNull(),
  monthlyAmountCents: cents('monthly_amount_cents').notNull(),
  /** Percentages of the monthly amount, ascending and distinct. */
  thresholds: integer('thresholds').array().notNull(),
  alertOnForecast: boolean('alert_on_forecast').notNull(),
  stopClustersAtLimit: boolean('stop_clusters_at_limit').notNull(),
  updatedAt: at('updated_at').notNull(),
});

export const budgetAlerts = pgTable(
  'budget_alerts',
  {
    subscriptionId: uuid('subscription_id').notNull(),
    /** The UTC month, as YYYY-MM. */
    month: text('month').notNull(),
    threshold: integer('threshold').notNull(),
    /** ACTUAL or FORECAST. */
    kind: text('kind').notNull(),
    sentAt: at('sent_at').notNull(),
  },
  // Exactly once per subscription, month, threshold and kind, however many runs overlap.
  (table) => [primaryKey({ columns: [table.subscriptionId, table.month, table.threshold, table.kind] })],
);

/** The metering module's tables: service rates, followed clusters, charges, their rollups and the notices sent. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, date, index, numeric, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, cents } from '../../db/columns.js';

/** Service rates per account with the date they take effect; an account without rows pays the default rate card. */
export const serviceRates = pgTable(
  'service_rates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    dimension: text('dimension').notNull(),
    /** US dollars per unit × 10,000 (rates have up to 4 decimals). */
    rateE4: bigint('rate_e4', { mode: 'number' }).notNull(),
    freeUnits: numeric('free_units', { precision: 14, scale: 4 }).notNull().default('0'),
    effectiveFrom: at('effective_from').notNull(),
    createdByUserId: uuid('created_by_user_id'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [
    uniqueIndex('service_rates_account_dimension_idx').on(table.accountId, table.dimension, table.effectiveFrom),
    check('service_rates_rate_check', sql`${table.rateE4} >= 0 and ${table.rateE4} < 1000000`),
    check('service_rates_free_units_check', sql`${table.freeUnits} >= 0`),
  ],
);

/** The clusters metering follows: where their billable hours start and how long one lasts in real time. */
export const meteringClusters = pgTable(
  'metering_clusters',
  {
    clusterId: uuid('cluster_id').primaryKey(),
    subscriptionId: uuid('subscription_id').notNull(),
    accountId: uuid('account_id').notNull(),
    originAt: at('origin_at').notNull(),
    hourMs: bigint('hour_ms', { mode: 'number' }).notNull(),
    hasBackup: boolean('has_backup').notNull(),
    checkedUntil: at('checked_until').notNull(),
    /** Storage API requests are counted (and charged) for the billable hours that ended before this. */
    requestsCountedUntil: at('requests_counted_until').notNull(),
    finished: boolean('finished').notNull().default(false),
  },
  (table) => [
    index('metering_clusters_subscription_idx')
      .on(table.subscriptionId)
      .where(sql`not finished`),
    check('metering_clusters_hour_check', sql`${table.hourMs} > 0`),
  ],
);

/** One charge per (cluster, dimension, billable hour); append-only. */
export const meteringCharges = pgTable(
  'metering_charges',
  {
    clusterId: uuid('cluster_id').notNull(),
    dimension: text('dimension').notNull(),
    hourStart: at('hour_start').notNull(),
    subscriptionId: uuid('subscription_id').notNull(),
    accountId: uuid('account_id').notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    freeQuantity: numeric('free_quantity', { precision: 18, scale: 6 }).notNull(),
    rateE4: bigint('rate_e4', { mode: 'number' }).notNull(),
    amountCents: cents('amount_cents').notNull(),
    runId: uuid('run_id').notNull(),
    chargedAt: at('charged_at').notNull(),
  },
  (table) => [
    primaryKey({ name: 'metering_charges_pk', columns: [table.clusterId, table.dimension, table.hourStart] }),
    index('metering_charges_subscription_idx').on(table.subscriptionId, table.hourStart),
    index('metering_charges_free_idx')
      .on(table.accountId, table.dimension, table.hourStart)
      .where(sql`free_quantity > 0`),
    check('metering_charges_amount_check', sql`${table.amountCents} >= 0`),
  ],
);

/** Charges summed per subscription, day, cluster and dimension, written in the same transaction as the charges. */
export const meteringDailyRollups = pgTable(
  'metering_daily_rollups',
  {
    subscriptionId: uuid('subscription_id').notNull(),
    clusterId: uuid('cluster_id').notNull(),
    dimension: text('dimension').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    amountCents: cents('amount_cents').notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    freeQuantity: numeric('free_quantity', { precision: 18, scale: 6 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'metering_daily_rollups_pk', columns: [table.subscriptionId, table.day, table.clusterId, table.dimension] }),
    index('metering_daily_rollups_cluster_idx').on(table.clusterId, table.day),
  ],
);

/** Mails metering sends once (runway, overdue, credit expiry), keyed by what they are about. */
export const meteringNotices = pgTable('metering_notices', {
  key: text('key').primaryKey(),
  accountId: uuid('account_id').notNull(),
  sentAt: at('sent_at').notNull(),
});

/** Charges summed per subscription, month (its first day), cluster and dimension, written with the charges. */
export const meteringMonthlyRollups = pgTable(
  'metering_monthly_rollups',
  {
    subscriptionId: uuid('subscription_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    clusterId: uuid('cluster_id').notNull(),
    dimension: text('dimension').notNull(),
    amountCents: cents('amount_cents').notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    freeQuantity: numeric('free_quantity', { precision: 18, scale: 6 }).notNull(),
  },
  (table) => [
    primaryKey({ name: 'metering_monthly_rollups_pk', columns: [table.subscriptionId, table.month, table.clusterId, table.dimension] }),
    index('metering_monthly_rollups_cluster_idx').on(table.clusterId, table.month),
  ],
);

/** Charges summed per subscription, day and dimension (all its clusters), written with the charges. */
export const meteringSubscriptionDailyRollups = pgTable(
  'metering_subscription_daily_rollups',
  {
    subscriptionId: uuid('subscription_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    dimension: text('dimension').notNull(),
    amountCents: cents('amount_cents').notNull(),
    quantity: numeric('quantity', { precision: 18, scale: 6 }).notNull(),
    freeQuantity: numeric('free_quantity', { precision: 18, scale: 6 }).notNull(),
  },
  (table) => [primaryKey({ name: 'metering_subscription_daily_rollups_pk', columns: [table.subscriptionId, table.day, table.dimension] })],
);

import { z } from 'zod';
import { CLUSTER_MESSAGES } from './messages.js';
import { moneySchema } from './money-schemas.js';
import { optionalShapeQuery } from './cluster-sizes.js';
import { monthStartSchema } from './export-years.js';

// ---------------------------------------------------------------------------------------------
// Dimensions, units and categories (spec sections 3 and 9)
// ---------------------------------------------------------------------------------------------

/** The metered dimensions, in the column order of the spec's consumption table. */
export const METERING_DIMENSIONS = [
  'BI_SERVER',
  'QUERY_ENGINES',
  'DATA_PROCESS',
  'PERIPHERAL_SERVICES',
  'LOCAL_STORAGE',
  'PERSISTENT_STORAGE',
  'PERSISTENT_STORAGE_REQUESTS',
  'BACKUP_STORAGE',
  'BACKUP_DATA_TRANSFER',
] as const;
export type MeteringDimension = (typeof METERING_DIMENSIONS)[number];

/** Column headers of the cost and consumption tables (spec section 2, Tables: Consumption). */
export const METERING_DIMENSION_LABELS: Record<MeteringDimension, string> = {
  BI_SERVER: 'BI Server',
  QUERY_ENGINES: 'Query Engine',
  DATA_PROCESS: 'Build',
  PERIPHERAL_SERVICES: 'Peripheral',
  LOCAL_STORAGE: 'Cache Storage',
  PERSISTENT_STORAGE: 'Persistent Storage',
  PERSISTENT_STORAGE_REQUESTS: 'Storage API Requests',
  BACKUP_STORAGE: 'Disaster Recovery',
  BACKUP_DATA_TRANSFER: 'Backup Data Transfer',
};

/** Units of each rate (spec section 9). */
export const METERING_UNITS = {
  BI_SERVER: 'core-hour',
  QUERY_ENGINES: 'core-hour',
  DATA_PROCESS: 'core-hour',
  PERIPHERAL_SERVICES: 'hour',
  LOCAL_STORAGE: 'GB-month',
  PERSISTENT_STORAGE: 'GB-month',
  PERSISTENT_STORAGE_REQUESTS: 'thousand requests',
  BACKUP_STORAGE: 'GB-month',
  BACKUP_DATA_TRANSFER: 'GB',
} as const satisfies Record<MeteringDimension, string>;

/** Unit labels for rate tables: "per core per hour", "per GB-month" … */
export const METERING_UNIT_LABELS: Record<MeteringDimension, string> = {
  BI_SERVER: 'per core per hour',
  QUERY_ENGINES: 'per core per hour',
  DATA_PROCESS: 'per core per hour',
  PERIPHERAL_SERVICES: 'per hour',
  LOCAL_STORAGE: 'per GB-month',
  PERSISTENT_STORAGE: 'per GB-month',
  PERSISTENT_STORAGE_REQUESTS: 'per 1,000 requests',
  BACKUP_STORAGE: 'per GB-month',
  BACKUP_DATA_TRANSFER: 'per GB',
};

/** Compute services run only while nodes run; the others are storage and apply while the cluster exists. */
export const COMPUTE_DIMENSIONS: readonly MeteringDimension[] = ['BI_SERVER', 'QUERY_ENGINES', 'DATA_PROCESS', 'PERIPHERAL_SERVICES'];

/** Dimensions with free units each month: build hours and cache storage GB-month (spec section 3). */
export const FREE_UNIT_DIMENSIONS = ['DATA_PROCESS', 'LOCAL_STORAGE'] as const;
export type FreeUnitDimension = (typeof FREE_UNIT_DIMENSIONS)[number];
/** The unit free units are given and shown in: build in hours of the build node (not core-hours, its rate's unit). */
export const FREE_UNIT_UNITS: Record<FreeUnitDimension, string> = { DATA_PROCESS: 'build hours', LOCAL_STORAGE: 'GB-month' };

/** Credit consumption categories (spec section 3): the dimensions plus the free units used. */
export const CONSUMPTION_CATEGORIES = [...METERING_DIMENSIONS, 'DATA_PROCESS_FREE', 'LOCAL_STORAGE_FREE'] as const;
export type ConsumptionCategory = (typeof CONSUMPTION_CATEGORIES)[number];

/** Hours in a billing month for GB-month storage rates: 730 = 8760 / 12. */
export const HOURS_PER_BILLING_MONTH = 730;

/** Rates are typed with up to 2 integer digits and 4 decimals (spec section 9). */
export const RATE_PATTERN = /^\d{1,2}(\.\d{1,4})?$/;

// ---------------------------------------------------------------------------------------------
// Rates
// ---------------------------------------------------------------------------------------------

export const serviceRateSchema = z
  .object({
    dimension: z.enum(METERING_DIMENSIONS),
    /** US dollars per unit, up to 4 decimals. */
    rate: z.number(),
    /** Free units a month (only DATA_PROCESS hours and LOCAL_STORAGE GB-month have any). */
    free_units: z.number(),
    unit: z.string(),
  })
  .meta({ id: 'ServiceRate' });
export type ServiceRate = z.infer<typeof serviceRateSchema>;

export const rateCardSchema = z
  .object({
    effective_date: z.iso.datetime(),
    service_rate: z.record(z.enum(METERING_DIMENSIONS), z.number()),
    free_units: z.record(z.enum(FREE_UNIT_DIMENSIONS), z.number()),
    rates: z.array(serviceRateSchema),
  })
  .meta({ id: 'RateCard' });
export type RateCard = z.infer<typeof rateCardSchema>;

// ---------------------------------------------------------------------------------------------
// Consumption calls (spec section 7)
// ---------------------------------------------------------------------------------------------

/** startDate: the first of a month at midnight UTC, e.g. 2026-11-01T00:00:00; the current month when absent. */
export const consumptionQuerySchema = z.object({
  startDate: monthStartSchema(CLUSTER_MESSAGES.auditStartDateFormat).optional(),
});

/** Amount per category in US dollars; every category is present (0 when nothing was used). */
export const serviceConsumptionSchema = z.record(z.enum(CONSUMPTION_CATEGORIES), moneySchema).meta({ id: 'ServiceConsumption' });
export type ServiceConsumption = z.infer<typeof serviceConsumptionSchema>;

/** One row of GET /api/subscription/consumption/overview. */
export const subscriptionConsumptionOverviewSchema = z
  .object({
    subscription_id: z.uuid(),
    subscription_name: z.string(),
    /** Charged in the month so far. */
    consumed_amount: moneySchema,
    /** consumed_amount + the current hourly rate × the hours left in the month (docs/metering.md). */
    forecasted_amount: moneySchema,
    balance: moneySchema,
    /** Paid funds and free credits, apart (balance = paid_funds + free_credits). */
    paid_funds: moneySchema,
    free_credits: moneySchema,
    /** What the subscription's clusters cost per billable hour in their present state. */
    hourly_rate: moneySchema,
    /** Hours the balance lasts at hourly_rate; null when nothing is charged or the balance is gone. */
    runway_hours: z.number().nullable(),
    start_date: z.iso.datetime(),
    end_date: z.iso.datetime(),
  })
  .meta({ id: 'SubscriptionConsumptionOverview' });
export type SubscriptionConsumptionOverview = z.infer<typeof subscriptionConsumptionOverviewSchema>;
export const subscriptionConsumptionOverviewListSchema = z
  .array(subscriptionConsumptionOverviewSchema)
  .meta({ id: 'SubscriptionConsumptionOverviewList' });

/** One day of the cost table. */
export const dailyCostSchema = z.object({
  /** The day, YYYY-MM-DD (UTC). */
  date: z.string(),
  daily_total: moneySchema,
  service_consumption: serviceConsumptionSchema,
  /** Compute services (BI server, query engines, build, peripheral) and storage services of the day. */
  compute_total: moneySchema,
  storage_total: moneySchema,
});
export type DailyCost = z.infer<typeof dailyCostSchema>;

/** One day of the consumption table: quantities in the units of METERING_UNITS. */
export const dailyUsageSchema = z.object({
  date: z.string(),
  usage: z.record(z.enum(METERING_DIMENSIONS), z.number()),
  /**
   * Free build hours (hours of the build node, the unit of the monthly allowance) the whole account used in the month
   * up to the end of this day: the allowance is the account's, so every subscription shows the same figure.
   */
  free_build_up_to: z.number(),
  /** Free cache storage GB-month the whole account used in the month up to the end of this day. */
  free_cache_storage_up_to: z.number(),
});
export type DailyUsage = z.infer<typeof dailyUsageSchema>;

export const clusterCostSchema = z.object({
  deployment_id: z.uuid(),
  cluster_name: z.string(),
  total: moneySchema,
  service_consumption: serviceConsumptionSchema,
});

export const clusterConsumptionEntrySchema = z.object({
  deployment_id: z.uuid(),
  cluster_name: z.string(),
  consumption: moneySchema,
  cluster_status: z.string(),
  status_update_date: z.iso.datetime(),
});

export const monthlyConsumptionSchema = z.object({
  /** The month, YYYY-MM-01. */
  date: z.string(),
  monthly_consumed_amount: moneySchema,
});
export type MonthlyConsumption = z.infer<typeof monthlyConsumptionSchema>;

/**
 * GET /api/subscription/consumption/credit-analysis/{subscriptionId} and, for one cluster,
 * GET /api/cluster/consumption/credit-analysis/{deploymentId} (its clusters list has that one cluster).
 */
export const creditAnalysisSchema = z
  .object({
    start_date: z.iso.datetime(),
    end_date: z.iso.datetime(),
    /** Every day of the month up to today (or the month's end), oldest first. */
    daily: z.array(dailyCostSchema),
    /** The month's total per category. */
    total_service_consumption: serviceConsumptionSchema,
    total: moneySchema,
    compute_total: moneySchema,
    storage_total: moneySchema,
    clusters: z.array(clusterCostSchema),
    total_cluster_consumption: z.array(clusterConsumptionEntrySchema),
    consumption: z.array(dailyUsageSchema),
    /** The 12 months ending with the chosen one, oldest first. */
    last_12_months: z.array(monthlyConsumptionSchema),
  })
  .meta({ id: 'CreditAnalysis' });
export type CreditAnalysis = z.infer<typeof creditAnalysisSchema>;

/** GET /api/cluster/consumption/overview/{deploymentId}. */
export const clusterConsumptionOverviewSchema = z
  .object({
    deployment_id: z.uuid(),
    cluster_name: z.string(),
    subscription_id: z.uuid(),
    consumed_amount: moneySchema,
    forecasted_amount: moneySchema,
    hourly_rate: moneySchema,
    start_date: z.iso.datetime(),
    end_date: z.iso.datetime(),
  })
  .meta({ id: 'ClusterConsumptionOverview' });
export type ClusterConsumptionOverview = z.infer<typeof clusterConsumptionOverviewSchema>;

/**
 * GET /api/cluster/consumption/hourly-rate?subscriptionId=…&dr=…&size=…&query_engines=… — the cost preview before a
 * create or start, for a cluster of that shape (M × 5 when left out).
 */
export const hourlyRateQuerySchema = z.object({
  subscriptionId: z.uuid(),
  /** true when the cluster has a backup region (disaster recovery). */
  dr: z.enum(['true', 'false']).optional(),
  ...optionalShapeQuery,
});
export const hourlyRatePreviewSchema = z
  .object({
    /** A running cluster's cost per billable hour at the subscription's rates. */
    hourly_rate: moneySchema,
    /**
     * The same cluster stopped (its storage): what a stopped cluster already costs, so starting it adds the
     * difference, which is what a budget's hard cap asks (start_headroom_per_hour).
     */
    stopped_hourly_rate: moneySchema,
    balance: moneySchema,
    /** Whole billable hours the balance covers at that rate. */
    covers_hours: z.number().int(),
    /**
     * How many times faster than real time the cloud runs: 1 with AWS, more in the demo's simulated cloud, whose
     * billable hours pass that much faster. The figures above are in billable hours either way.
     */
    time_scale: z.number().positive(),
  })
  .meta({ id: 'HourlyRatePreview' });
export type HourlyRatePreview = z.infer<typeof hourlyRatePreviewSchema>;

// ---------------------------------------------------------------------------------------------
// Balance outlook (docs/metering.md, Balance rules): what the subscription details say about money ahead
// ---------------------------------------------------------------------------------------------

/** One free-credit grant with credits left. */
export const freeCreditGrantSchema = z.object({
  granted_at: z.iso.datetime(),
  /** What was granted, and what is left of it to spend. */
  amount: moneySchema,
  remaining: moneySchema,
  expires_at: z.iso.datetime(),
  /** Whole days until it expires (0 on its last day). */
  days_left: z.number().int(),
});
export type FreeCreditGrant = z.infer<typeof freeCreditGrantSchema>;

/** One rate a scheduled change sets, beside the rate in force until then. */
export const scheduledRateSchema = z.object({
  dimension: z.enum(METERING_DIMENSIONS),
  /** US dollars per unit. */
  rate: z.number(),
  previous_rate: z.number(),
  free_units: z.number(),
  previous_free_units: z.number(),
});

/** New rates staff set for a future date: shown until they take effect. */
export const scheduledRateChangeSchema = z.object({
  effective_date: z.iso.datetime(),
  /** Only the rates that change. */
  rates: z.array(scheduledRateSchema),
});
export type ScheduledRateChange = z.infer<typeof scheduledRateChangeSchema>;

/** GET /api/subscription/consumption/outlook/{subscriptionId}. */
export const balanceOutlookSchema = z
  .object({
    subscription_id: z.uuid(),
    balance: moneySchema,
    /** balance = paid_funds + free_credits; free_credits is the sum of the grants' remaining. */
    paid_funds: moneySchema,
    free_credits: moneySchema,
    free_credit_grants: z.array(freeCreditGrantSchema),
    /** What the subscription's clusters cost per billable hour now (0 when nothing is charged). */
    hourly_rate: moneySchema,
    /** Hours the balance lasts at hourly_rate; null when nothing is charged or the balance is gone. */
    runway_hours: z.number().nullable(),
    /** How far below zero the balance may go before the running clusters are stopped (set by Kumo Cloud staff). */
    overdue_limit: moneySchema,
    /** Hours until the balance reaches -overdue_limit at hourly_rate and the clusters are stopped; null when nothing is charged. */
    hours_until_stop: z.number().nullable(),
    /** The account's rate changes still to come, earliest first. */
    scheduled_rate_changes: z.array(scheduledRateChangeSchema),
  })
  .meta({ id: 'BalanceOutlook' });
export type BalanceOutlook = z.infer<typeof balanceOutlookSchema>;

// ---------------------------------------------------------------------------------------------
// CSV exports (same filters as the screens); each answers text/csv as an attachment
// ---------------------------------------------------------------------------------------------

export const CSV_TABLES = ['cost', 'consumption'] as const;
export type CsvTable = (typeof CSV_TABLES)[number];
export const csvExportQuerySchema = consumptionQuerySchema.extend({ table: z.enum(CSV_TABLES).default('cost') });

export const CONSUMPTION_EXPORT_PATHS = {
  /** ?startDate&table=cost|consumption */
  subscription: (subscriptionId: string) => `/api/subscription/consumption/export/${subscriptionId}`,
  cluster: (deploymentId: string) => `/api/cluster/consumption/export/${deploymentId}`,
  /** Transaction history of a subscription (all pages). */
  transactions: (subscriptionId: string) => `/api/credit/export/credit-transactions/${subscriptionId}`,
  /** Audit logs of a cluster for a month: ?startDate */
  auditLogs: (deploymentId: string) => `/api/cluster/export/audit-logs/${deploymentId}`,
} as const;

export const METERING_MESSAGES = {
  costUnavailable: 'Usage cost for the current period is not available.',
  costLoadFailed: 'Unable to load Cost Analysis details.',
} as const;

// ---------------------------------------------------------------------------------------------
// Reports page (spec §7): a printable subscription report the portal renders, shown in a frame
// ---------------------------------------------------------------------------------------------

/** GET /api/user/report-url: where the frame points; the address carries a short-lived report session. */
export const reportUrlResponseSchema = z
  .object({
    data: z.object({ subscription_report_url: z.string() }),
    subscription_report_url: z.string(),
    /** When the report session ends (a new URL is needed after). */
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'ReportUrl' });
export type ReportUrlResponse = z.infer<typeof reportUrlResponseSchema>;
/** Minutes a report address stays valid. */
export const REPORT_SESSION_MINUTES = 30;

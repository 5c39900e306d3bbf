import { z } from 'zod';
import { TRANSACTION_CATEGORY_LABELS } from './billing.js';
import { PRODUCT } from './constants.js';
import { YEAR_RANGE_MESSAGE, inExportYears, monthStartSchema } from './export-years.js';
import { csvExportQuerySchema, METERING_DIMENSIONS } from './metering.js';

// ---------------------------------------------------------------------------------------------
// Consumption export: GET /api/subscription/consumption/export/{subscriptionId}?from&to&granularity&format
// (the same path still answers the cost and consumption tables of a month with ?startDate&table)
// ---------------------------------------------------------------------------------------------

export const CONSUMPTION_GRANULARITIES = ['HOUR', 'DAY', 'MONTH'] as const;
export type ConsumptionGranularity = (typeof CONSUMPTION_GRANULARITIES)[number];
export const EXPORT_FORMATS = ['csv', 'json'] as const;
export const PAID_FROM = ['FREE_CREDITS', 'FUNDS'] as const;
export type PaidFrom = (typeof PAID_FROM)[number];
/** The longest range one consumption export covers. */
export const CONSUMPTION_EXPORT_MAX_MONTHS = 13;

export const USAGE_EXPORT_MESSAGES = {
  dayFormat: 'Use a date in the format YYYY-MM-DD.',
  yearRange: YEAR_RANGE_MESSAGE,
  rangeIncomplete: 'Give both from and to.',
  rangeReversed: 'The end date must not be before the start date.',
  rangeTooLong: `A consumption export covers at most ${CONSUMPTION_EXPORT_MAX_MONTHS} months.`,
} as const;

/** Whether a YYYY-MM-DD text is a day of the calendar: 2024-02-30 and 2024-13-45 are not. */
export function isCalendarDay(day: string): boolean {
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
}

/** A real calendar day, YYYY-MM-DD, in the export years. */
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, USAGE_EXPORT_MESSAGES.dayFormat)
  .refine(isCalendarDay, USAGE_EXPORT_MESSAGES.dayFormat)
  // A text that is no day at all has one message, the format's.
  .refine((day) => !isCalendarDay(day) || inExportYears(day), USAGE_EXPORT_MESSAGES.yearRange);

/** The first moment after `to`'s day (the range includes the whole of `to`). */
export function exportRangeEnd(to: string): Date {
  return new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
}

function withinMonths(from: string, to: string, months: number): boolean {
  const start = new Date(`${from}T00:00:00Z`);
  const limit = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, start.getUTCDate());
  return exportRangeEnd(to).getTime() <= limit;
}

export const consumptionExportQuerySchema = csvExportQuerySchema
  .extend({
    from: isoDay.optional(),
    to: isoDay.optional(),
    granularity: z.enum(CONSUMPTION_GRANULARITIES).default('DAY'),
    format: z.enum(EXPORT_FORMATS).default('csv'),
  })
  .superRefine((query, ctx) => {
    const { from, to } = query;
    if ((from === undefined) !== (to === undefined)) {
      ctx.addIssue({ code: 'custom', path: [from === undefined ? 'from' : 'to'], message: USAGE_EXPORT_MESSAGES.rangeIncomplete });
      return;
    }
    // A day that is not one has its own issue already.
    if (from === undefined || to === undefined || ![from, to].every((day) => isCalendarDay(day) && inExportYears(day))) return;
    if (to < from) ctx.addIssue({ code: 'custom', path: ['to'], message: USAGE_EXPORT_MESSAGES.rangeReversed });
    else if (!withinMonths(from, to, CONSUMPTION_EXPORT_MAX_MONTHS)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: USAGE_EXPORT_MESSAGES.rangeTooLong });
    }
  });
export type ConsumptionExportQuery = z.infer<typeof consumptionExportQuerySchema>;

/** One row of the export: a period, a cluster, a dimension, a rate and where the money came from. */
export const consumptionExportRowSchema = z
  .object({
    period_start: z.iso.datetime(),
    cluster_id: z.uuid(),
    cluster_name: z.string(),
    dimension: z.enum(METERING_DIMENSIONS),
    quantity: z.number(),
    unit: z.string(),
    /** US dollars per unit. */
    rate: z.number(),
    free_units_applied: z.number(),
    /** US dollars. */
    amount: z.number(),
    paid_from: z.enum(PAID_FROM),
  })
  .meta({ id: 'ConsumptionExportRow' });
export type ConsumptionExportRow = z.infer<typeof consumptionExportRowSchema>;

export const consumptionExportSchema = z
  .object({
    subscription_id: z.uuid(),
    from: z.string(),
    to: z.string(),
    granularity: z.enum(CONSUMPTION_GRANULARITIES),
    rows: z.array(consumptionExportRowSchema),
  })
  .meta({ id: 'ConsumptionExport' });

export const CONSUMPTION_EXPORT_COLUMNS = [
  'period_start',
  'cluster_id',
  'cluster_name',
  'dimension',
  'quantity',
  'unit',
  'rate',
  'free_units_applied',
  'amount',
  'paid_from',
] as const satisfies readonly (keyof ConsumptionExportRow)[];

// ---------------------------------------------------------------------------------------------
// Monthly statement: GET /api/subscription/statement/{subscriptionId}?month=YYYY-MM&format=pdf|json
// ---------------------------------------------------------------------------------------------

const STATEMENT_MONTH_FORMAT = 'Use a month in the format YYYY-MM.';

export const statementQuerySchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, STATEMENT_MONTH_FORMAT)
    .refine((month) => isCalendarDay(`${month}-01`), STATEMENT_MONTH_FORMAT)
    .refine(inExportYears, USAGE_EXPORT_MESSAGES.yearRange),
  format: z.enum(['pdf', 'json']).default('json'),
});

/** How the statement (console and PDF) names a transfer of paid funds between two subscriptions. */
export const STATEMENT_TRANSFER_LABELS = {
  IN: 'Paid funds moved in from a deleted subscription',
  OUT: 'Paid funds moved out to another subscription',
} as const;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** 'October 2026' for '2026-10'. */
export const monthName = (month: string) => `${MONTH_NAMES[Number(month.slice(5, 7)) - 1] ?? month} ${month.slice(0, 4)}`;

/** How the statement (console and PDF) names its usage lines. */
export const STATEMENT_USAGE_LABELS = {
  month: (month: string) => `Usage of ${monthName(month)}`,
  earlier: (usedIn: string, month: string) => `Usage of ${monthName(usedIn)} posted in ${monthName(month)}`,
  later: (month: string) => `Usage of ${monthName(month)} posted after it (not in this balance)`,
} as const;

/** Categories the statement words its own way: to the customer a maintenance refund is a service credit. */
const STATEMENT_ADDITION_WORDS: Record<string, string> = { REFUND_MAINTENANCE_COST: 'Service credit' };

/** How the statement names what staff added: the category's words, and who added it. */
export const staffAdditionLabel = (category: string) =>
  `${STATEMENT_ADDITION_WORDS[category] ?? (TRANSACTION_CATEGORY_LABELS as Record<string, string>)[category] ?? 'Funds'} from ${PRODUCT.shortName}`;

const statementLine = z.object({ date: z.iso.datetime(), amount: z.number() });

export const statementSchema = z
  .object({
    subscription_id: z.uuid(),
    subscription_name: z.string(),
    /** Whose statement it is: the account's owner. */
    account_owner: z.object({ name: z.string(), email: z.string() }),
    month: z.string(),
    currency: z.literal('USD'),
    opening_balance: z.number(),
    top_ups: z.array(statementLine.extend({ method: z.enum(['CARD', 'AUTOMATIC']), receipt_id: z.string() })),
    staff_additions: z.array(statementLine.extend({ reason: z.string() })),
    free_credits_granted: z.array(statementLine.extend({ expires: z.string() })),
    /** Negative amounts. */
    free_credits_expired: z.array(statementLine),
    /** Negative amounts. */
    refunds: z.array(statementLine.extend({ remark: z.string() })),
    /** Paid funds moved in from a deleted subscription (IN, positive) or out to another when this one was deleted (OUT, negative). */
    transfers: z.array(statementLine.extend({ direction: z.enum(['IN', 'OUT']) })),
    usage: z.object({
      /** The usage of the month's hours (a month's usage is counted by the hour of use, docs/metering.md). */
      total: z.number(),
      by_cluster: z.array(
        z.object({
          cluster_id: z.uuid(),
          cluster_name: z.string(),
          amount: z.number(),
          services: z.array(z.object({ dimension: z.enum(METERING_DIMENSIONS), amount: z.number() })),
        }),
      ),
      /** Usage of earlier months' hours debited in this month, per month of use (YYYY-MM). */
      earlier_months: z.array(z.object({ month: z.string(), amount: z.number() })),
      /** Usage of this month's hours debited after it ended: in a later month's balance, not in this closing balance. */
      posted_later: z.number(),
    }),
    /**
     * Everything that moved the balance in the month: opening_balance + movements = closing_balance, where the usage
     * part is -(total + earlier_months) + posted_later.
     */
    movements: z.number(),
    closing_balance: z.number(),
  })
  .meta({ id: 'Statement' });
export type Statement = z.infer<typeof statementSchema>;

/** The months a subscription has statements for, from its creation month to `now`'s, newest first. */
export function statementMonthsSince(createdAt: Date, now: Date): string[] {
  const months: string[] = [];
  const first = Date.UTC(createdAt.getUTCFullYear(), createdAt.getUTCMonth(), 1);
  for (let at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)); at.getTime() >= first;) {
    months.push(at.toISOString().slice(0, 7));
    at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1));
  }
  return months;
}

// ---------------------------------------------------------------------------------------------
// Account audit export: GET /api/account/audit-logs/export?startDate=YYYY-MM-01&format=csv|json
// ---------------------------------------------------------------------------------------------

export const accountAuditExportQuerySchema = z.object({
  startDate: monthStartSchema('Use the first day of a month, YYYY-MM-01.').optional(),
  format: z.enum(EXPORT_FORMATS).default('csv'),
});

export const ACCOUNT_AUDIT_EXPORT_COLUMNS = ['date', 'source', 'cluster_id', 'cluster_name', 'event', 'description', 'caused_by'] as const;
export interface AccountAuditExportRow {
  date: string;
  /** CLUSTER: a cluster's event; ACCOUNT: a staff action on the account. */
  source: 'CLUSTER' | 'ACCOUNT';
  cluster_id: string | null;
  cluster_name: string | null;
  event: string;
  description: string;
  caused_by: string;
}

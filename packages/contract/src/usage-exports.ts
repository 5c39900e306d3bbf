import { z } from 'zod';
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
  rangeIncomplete: 'Give both from and to.',
  rangeReversed: 'The end date must not be before the start date.',
  rangeTooLong: `A consumption export covers at most ${CONSUMPTION_EXPORT_MAX_MONTHS} months.`,
} as const;

/** A real calendar day, YYYY-MM-DD. */
const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, USAGE_EXPORT_MESSAGES.dayFormat)
  .refine((day) => {
    const at = new Date(`${day}T00:00:00Z`);
    return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) === day;
  }, USAGE_EXPORT_MESSAGES.dayFormat);

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
    if (from === undefined || to === undefined || Number.isNaN(Date.parse(`${from}T00:00:00Z`)) || Number.isNaN(Date.parse(`${to}T00:00:00Z`))) return;
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

// Budgets (docs/spend-control.md): a monthly amount per subscription, alert thresholds and an optional hard cap.
import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { CENTS_PER_DOLLAR, readAmount } from './money.js';
import { moneySchema } from './money-schemas.js';

export const BUDGET_LIMITS = {
  minDollars: 1,
  maxDollars: 999_999,
  minThreshold: 1,
  maxThreshold: 200,
  maxThresholds: 10,
  defaultThresholds: [50, 75, 90, 100],
} as const;

export const BUDGET_ALERT_KINDS = ['ACTUAL', 'FORECAST'] as const;
export type BudgetAlertKind = (typeof BUDGET_ALERT_KINDS)[number];

export const BUDGET_MESSAGES = {
  amountRange: 'Enter a monthly budget from 1 to 999,999 USD.',
  amountDecimals: 'The monthly budget can have at most 2 decimal places.',
  thresholdsCount: 'Choose from 1 to 10 alert thresholds.',
  thresholdRange: 'Each alert threshold is a whole percentage from 1 to 200.',
  thresholdsDistinct: 'Each alert threshold can be chosen only once.',
  flagRequired: 'Choose yes or no.',
  budgetSaved: 'The budget has been saved.',
  budgetDeleted: 'The budget has been removed.',
} as const;

/** Why a cluster of a subscription whose hard cap is reached may not start (code BUDGET_EXCEEDED). */
export const budgetExceededMessage = (subscriptionName: string) =>
  `The monthly budget of ${subscriptionName} is used up. Raise the budget to start clusters this month.`;

const MIN_BUDGET_CENTS = BUDGET_LIMITS.minDollars * CENTS_PER_DOLLAR;
const MAX_BUDGET_CENTS = BUDGET_LIMITS.maxDollars * CENTS_PER_DOLLAR;

/** A monthly amount on its way into the API: a number or decimal text from $1 to $999,999, as cents. */
export const budgetAmountSchema = z
  .union([z.number(), z.string().max(32)], { error: BUDGET_MESSAGES.amountRange })
  .transform((value, ctx) => {
    const parsed = readAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({
        code: 'custom',
        message: parsed.reason === 'too-many-decimals' ? BUDGET_MESSAGES.amountDecimals : BUDGET_MESSAGES.amountRange,
      });
      return z.NEVER;
    }
    if (parsed.cents < MIN_BUDGET_CENTS || parsed.cents > MAX_BUDGET_CENTS)
      ctx.addIssue({ code: 'custom', message: BUDGET_MESSAGES.amountRange });
    return parsed.cents;
  });

const thresholdSchema = z
  .number({ error: BUDGET_MESSAGES.thresholdRange })
  .int(BUDGET_MESSAGES.thresholdRange)
  .min(BUDGET_LIMITS.minThreshold, BUDGET_MESSAGES.thresholdRange)
  .max(BUDGET_LIMITS.maxThreshold, BUDGET_MESSAGES.thresholdRange);

/** 1 to 10 distinct whole percentages from 1 to 200, kept in ascending order. */
export const budgetThresholdsSchema = z
  .array(thresholdSchema, { error: BUDGET_MESSAGES.thresholdsCount })
  .min(1, BUDGET_MESSAGES.thresholdsCount)
  .max(BUDGET_LIMITS.maxThresholds, BUDGET_MESSAGES.thresholdsCount)
  .refine((list) => new Set(list).size === list.length, BUDGET_MESSAGES.thresholdsDistinct)
  .transform((list) => [...list].sort((a, b) => a - b));

const flagSchema = z.boolean({ error: BUDGET_MESSAGES.flagRequired });

/** PUT /api/subscription/{subscriptionId}/budget. */
export const budgetRequestSchema = z
  .object({
    monthly_amount: budgetAmountSchema,
    thresholds: budgetThresholdsSchema.optional().default([...BUDGET_LIMITS.defaultThresholds]),
    alert_on_forecast: flagSchema.optional().default(false),
    stop_clusters_at_limit: flagSchema.optional().default(false),
  })
  .meta({ id: 'BudgetRequest' });
export type BudgetRequest = z.input<typeof budgetRequestSchema>;
/** A validated budget: the amount in cents, the thresholds ascending. */
export type BudgetSettings = z.output<typeof budgetRequestSchema>;

export const budgetParamsSchema = z.object({ subscriptionId: z.uuid({ error: MESSAGES.subscriptionNotFound }) });

/** An alert sent this month: each threshold once per month and kind. */
export const budgetAlertSchema = z.object({
  threshold: z.number().int(),
  /** ACTUAL: the month's spend reached it; FORECAST: the month's forecast did. */
  kind: z.enum(BUDGET_ALERT_KINDS),
  sent_at: z.iso.datetime(),
});
export type BudgetAlert = z.infer<typeof budgetAlertSchema>;

/** GET, PUT /api/subscription/{subscriptionId}/budget. */
export const budgetSchema = z
  .object({
    subscription_id: z.uuid(),
    /** null when the subscription has no budget. */
    monthly_amount: moneySchema.nullable(),
    thresholds: z.array(z.number().int()),
    alert_on_forecast: z.boolean(),
    stop_clusters_at_limit: z.boolean(),
    /** The subscription's usage charged this UTC month. */
    month_to_date: moneySchema,
    /** The month's forecast, the one the cost overview shows. */
    forecast: moneySchema,
    /**
     * With the hard cap: the most a cluster's running hour may cost for it to start, or be created, now (the cost
     * preview's hourly_rate above it is refused with BUDGET_EXCEEDED); negative when none may. null without the cap.
     */
    start_headroom_per_hour: moneySchema.nullable(),
    /** This month's alerts, oldest first. */
    alerts: z.array(budgetAlertSchema),
  })
  .meta({ id: 'Budget' });
export type Budget = z.infer<typeof budgetSchema>;

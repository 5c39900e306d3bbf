// Automatic top-up (docs/spend-control.md): a saved card charged off-session when a metering run leaves the
// balance under a threshold, at most once an hour and never over a monthly cap.
import { z } from 'zod';
import { MESSAGES } from './messages.js';
import { CENTS_PER_DOLLAR, readAmount } from './money.js';
import { moneySchema } from './money-schemas.js';

export const AUTO_TOP_UP_LIMITS = {
  /** The balance under which a top-up is charged: 0 to 999,999 USD. */
  minThresholdDollars: 0,
  maxThresholdDollars: 999_999,
  /** One top-up: 1 to 999,999 USD, as a card purchase. */
  minTopUpDollars: 1,
  maxTopUpDollars: 999_999,
  /** All top-ups of a UTC month together: at least one top-up, at most 9,999,999 USD. */
  maxMonthlyCapDollars: 9_999_999,
} as const;

/** What a subscription that never saved its settings shows (and what the form starts from). */
export const AUTO_TOP_UP_DEFAULTS = { threshold_amount: 50, top_up_amount: 100, monthly_cap: 500 } as const;

/**
 * OFF: not enabled. ACTIVE: enabled with a saved card. PAUSED_AFTER_FAILURE: the last charge was declined or
 * needed the customer (3-D Secure); nothing is charged until the customer saves the settings or a card again.
 */
export const AUTO_TOP_UP_STATUSES = ['OFF', 'ACTIVE', 'PAUSED_AFTER_FAILURE'] as const;
export type AutoTopUpStatus = (typeof AUTO_TOP_UP_STATUSES)[number];

/**
 * How the last off-session charge ended. SUCCEEDED: credited. DECLINED: the bank refused it.
 * AUTHENTICATION_REQUIRED: the bank asked for the customer (3-D Secure). Both of these pause top-up.
 */
export const AUTO_TOP_UP_OUTCOMES = ['SUCCEEDED', 'DECLINED', 'AUTHENTICATION_REQUIRED'] as const;
export type AutoTopUpOutcome = (typeof AUTO_TOP_UP_OUTCOMES)[number];

export const AUTO_TOP_UP_MESSAGES = {
  thresholdRange: 'Enter a threshold from 0 to 999,999 USD.',
  topUpRange: 'Enter a top-up amount from 1 to 999,999 USD.',
  monthlyCapRange: 'Enter a monthly cap from 1 to 9,999,999 USD.',
  monthlyCapBelowTopUp: 'The monthly cap must be at least the top-up amount.',
  decimals: 'An amount can have at most 2 decimal places.',
  enabledRequired: 'Choose whether automatic top-up is on.',
  /** 422 PAYMENT_METHOD_REQUIRED: enabling with no saved card. */
  paymentMethodRequired: 'Save a card before you turn on automatic top-up.',
  saved: 'Automatic top-up has been saved.',
  cardSaved: 'The card has been saved.',
  cardRemoved: 'The card has been removed and automatic top-up turned off.',
  /** 503 when card payments are not configured (no Stripe and no sandbox). */
  cardsUnavailable: 'Saving a card is not available right now. Please try again later.',
  /** The last attempt's message when a charge had no answer from the payment provider for a day: nothing was charged. */
  chargeUnconfirmed: 'The payment provider did not confirm this top-up within a day, so nothing was charged.',
} as const;

function amountInRange(minDollars: number, maxDollars: number, rangeMessage: string) {
  return z.union([z.number(), z.string().max(32)], { error: rangeMessage }).transform((value, ctx) => {
    const parsed = readAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.reason === 'too-many-decimals' ? AUTO_TOP_UP_MESSAGES.decimals : rangeMessage });
      return z.NEVER;
    }
    if (parsed.cents < minDollars * CENTS_PER_DOLLAR || parsed.cents > maxDollars * CENTS_PER_DOLLAR)
      ctx.addIssue({ code: 'custom', message: rangeMessage });
    return parsed.cents;
  });
}

const L = AUTO_TOP_UP_LIMITS;

/** PUT /api/subscription/{subscriptionId}/auto-top-up: amounts arrive as dollars and leave as cents. */
export const autoTopUpRequestSchema = z
  .object({
    enabled: z.boolean({ error: AUTO_TOP_UP_MESSAGES.enabledRequired }),
    threshold_amount: amountInRange(L.minThresholdDollars, L.maxThresholdDollars, AUTO_TOP_UP_MESSAGES.thresholdRange),
    top_up_amount: amountInRange(L.minTopUpDollars, L.maxTopUpDollars, AUTO_TOP_UP_MESSAGES.topUpRange),
    monthly_cap: amountInRange(L.minTopUpDollars, L.maxMonthlyCapDollars, AUTO_TOP_UP_MESSAGES.monthlyCapRange),
  })
  .superRefine((value, ctx) => {
    if (value.monthly_cap < value.top_up_amount)
      ctx.addIssue({ code: 'custom', path: ['monthly_cap'], message: AUTO_TOP_UP_MESSAGES.monthlyCapBelowTopUp });
  })
  .meta({ id: 'AutoTopUpRequest' });
export type AutoTopUpRequest = z.input<typeof autoTopUpRequestSchema>;
/** Validated settings, amounts in cents. */
export type AutoTopUpSettings = z.output<typeof autoTopUpRequestSchema>;

export const autoTopUpParamsSchema = z.object({ subscriptionId: z.uuid({ error: MESSAGES.subscriptionNotFound }) });

/**
 * GET ?card=saved: the customer is back from the provider's card-saving page, so the card it saved is read back now
 * (otherwise the provider's notification brings it).
 */
export const autoTopUpQuerySchema = z.object({ card: z.literal('saved').optional() });

export const savedCardSchema = z
  .object({
    brand: z.string(),
    last4: z.string(),
    exp_month: z.number().int(),
    exp_year: z.number().int(),
  })
  .meta({ id: 'SavedCard' });
export type SavedCard = z.infer<typeof savedCardSchema>;

export const autoTopUpAttemptSchema = z.object({
  at: z.iso.datetime(),
  amount: moneySchema,
  outcome: z.enum(AUTO_TOP_UP_OUTCOMES),
  /** The provider's words for a refusal; null when it succeeded. */
  message: z.string().nullable(),
});
export type AutoTopUpAttempt = z.infer<typeof autoTopUpAttemptSchema>;

/** GET, PUT /api/subscription/{subscriptionId}/auto-top-up; DELETE .../payment-method answers it too. */
export const autoTopUpSchema = z
  .object({
    subscription_id: z.uuid(),
    enabled: z.boolean(),
    threshold_amount: moneySchema,
    top_up_amount: moneySchema,
    monthly_cap: moneySchema,
    status: z.enum(AUTO_TOP_UP_STATUSES),
    payment_method: savedCardSchema.nullable(),
    /** Automatic top-ups credited this UTC month, counted against the monthly cap. */
    month_to_date: moneySchema,
    last_attempt: autoTopUpAttemptSchema.nullable(),
  })
  .meta({ id: 'AutoTopUp' });
export type AutoTopUp = z.infer<typeof autoTopUpSchema>;

/** POST /api/subscription/{subscriptionId}/payment-method: where to send the browser to save a card. */
export const paymentMethodSetupSchema = z.object({ redirect_url: z.string() }).meta({ id: 'PaymentMethodSetup' });
export type PaymentMethodSetup = z.infer<typeof paymentMethodSetupSchema>;

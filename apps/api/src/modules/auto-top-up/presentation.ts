/** Automatic top-up on the wire: dollars as the other money fields are, ISO dates and the field names. */
import { AUTO_TOP_UP_DEFAULTS, centsToAmount, type AutoTopUp, type AutoTopUpOutcome, type AutoTopUpStatus } from '@kumo/contract';
import type { AutoTopUpValues } from './auto-top-up.service.js';

export function toAutoTopUpWire(values: AutoTopUpValues): AutoTopUp {
  const { settings, lastAttempt } = values;
  const card = settings?.paymentMethodId
    ? {
        brand: settings.cardBrand ?? 'card',
        last4: settings.cardLast4 ?? '',
        exp_month: settings.cardExpMonth ?? 0,
        exp_year: settings.cardExpYear ?? 0,
      }
    : null;
  return {
    subscription_id: values.subscriptionId,
    enabled: settings?.enabled ?? false,
    threshold_amount: settings ? centsToAmount(settings.thresholdCents) : AUTO_TOP_UP_DEFAULTS.threshold_amount,
    top_up_amount: settings ? centsToAmount(settings.topUpCents) : AUTO_TOP_UP_DEFAULTS.top_up_amount,
    monthly_cap: settings ? centsToAmount(settings.monthlyCapCents) : AUTO_TOP_UP_DEFAULTS.monthly_cap,
    status: (settings?.status ?? 'OFF') as AutoTopUpStatus,
    payment_method: card,
    month_to_date: centsToAmount(values.monthToDateCents),
    last_attempt:
      lastAttempt && lastAttempt.settledAt
        ? {
            at: lastAttempt.settledAt.toISOString(),
            amount: centsToAmount(lastAttempt.amountCents),
            outcome: lastAttempt.status as AutoTopUpOutcome,
            message: lastAttempt.message,
          }
        : null,
  };
}

/** A budget on the wire: dollars as the other money fields are, ISO dates and the field names. */
import { BUDGET_LIMITS, centsToAmount, type Budget } from '@kumo/contract';
import type { BudgetValues } from './budgets.service.js';

export function toBudgetWire(values: BudgetValues): Budget {
  const { budget, spend } = values;
  return {
    subscription_id: values.subscriptionId,
    monthly_amount: budget ? centsToAmount(budget.monthlyAmountCents) : null,
    thresholds: budget ? budget.thresholds : [...BUDGET_LIMITS.defaultThresholds],
    alert_on_forecast: budget?.alertOnForecast ?? false,
    stop_clusters_at_limit: budget?.stopClustersAtLimit ?? false,
    month_to_date: centsToAmount(spend.consumedCents),
    forecast: centsToAmount(spend.forecastCents),
    start_headroom_per_hour: values.startHeadroomCents === undefined ? null : centsToAmount(values.startHeadroomCents),
    alerts: values.alerts.map((alert) => ({ threshold: alert.threshold, kind: alert.kind, sent_at: alert.sentAt.toISOString() })),
  };
}

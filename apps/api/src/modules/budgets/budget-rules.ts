/** The budget rules, without the database: which thresholds a month's spend crosses, and when the hard cap is reached. */
import { BUDGET_LIMITS } from '@kumo/contract';
import type { AlertKey, AlertRow, BudgetRow } from './budgets.repository.js';

/** A subscription's spend this UTC month, in cents: charged so far, the forecast the portal shows, and the hourly rate now. */
export interface Spend {
  consumedCents: number;
  forecastCents: number;
  hourlyCents: number;
}

/** The UTC month an alert belongs to, as YYYY-MM. */
export const monthKey = (now: Date) => now.toISOString().slice(0, 7);

/** Whether `cents` reaches `threshold` percent of the monthly amount (integer arithmetic, no rounding). */
const reaches = (cents: number, threshold: number, budget: Pick<BudgetRow, 'monthlyAmountCents'>) =>
  cents * 100 >= threshold * budget.monthlyAmountCents;

/** Every threshold the spend crosses: actual ones, and forecast ones when the budget alerts on the forecast. */
export function crossedThresholds(budget: BudgetRow, spend: Spend): AlertKey[] {
  const actual = budget.thresholds
    .filter((t) => reaches(spend.consumedCents, t, budget))
    .map((threshold) => ({ threshold, kind: 'ACTUAL' as const }));
  const forecast = budget.alertOnForecast
    ? budget.thresholds
        .filter((t) => reaches(spend.forecastCents, t, budget))
        .map((threshold) => ({ threshold, kind: 'FORECAST' as const }))
    : [];
  return [...actual, ...forecast];
}

/** This month's alerts the (changed) budget no longer crosses: a raised budget re-arms them. */
export function noLongerCrossed(budget: BudgetRow, spend: Spend, sent: AlertRow[]): AlertRow[] {
  return sent.filter((alert) => !reaches(alert.kind === 'ACTUAL' ? spend.consumedCents : spend.forecastCents, alert.threshold, budget));
}

/** A budget with the hard cap whose month's actual spend has reached 100 %: its clusters stop and may not start. */
export const capReached = (budget: BudgetRow, spend: Pick<Spend, 'consumedCents'>) =>
  budget.stopClustersAtLimit && reaches(spend.consumedCents, BUDGET_LIMITS.capPercent, budget);

/** The budget rules, without the database: which thresholds a month's spend crosses, and where the hard cap stops and refuses clusters. */
import type { AlertKey, AlertRow, BudgetRow } from './budgets.repository.js';

/** A subscription's spend this UTC month, in cents: charged so far, the forecast the portal shows, and the hourly rate now. */
export interface Spend {
  consumedCents: number;
  forecastCents: number;
  hourlyCents: number;
  /** The running query engines' part of `hourlyCents`, charged when each hour has ended. */
  engineHourlyCents: number;
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

/**
 * The hard cap looks ahead: a billable hour is charged as it begins, so clusters may run only while the hours that begin
 * before a later metering run could stop them fit in the budget. `hoursAhead` is that many hours: one with AWS (a run
 * every minute, hours of an hour), more in the faster simulated cloud. It also looks behind: the query engines' hour is
 * charged once it has ended and settled, so `engineHoursBehind` hours of them (the hour running and the one settling)
 * may have run without being charged yet.
 */
export interface CapHorizon {
  hoursAhead: number;
  engineHoursBehind: number;
}

/** The month's charges and the query engines' hours already run but not yet charged. */
const committedCents = (spend: Pick<Spend, 'consumedCents' | 'engineHourlyCents'>, horizon: CapHorizon) =>
  spend.consumedCents + spend.engineHourlyCents * horizon.engineHoursBehind;

/** The hard cap is reached when the next hours ahead at the current hourly rate would pass the amount: the clusters stop now. */
export const capReached = (
  budget: BudgetRow,
  spend: Pick<Spend, 'consumedCents' | 'hourlyCents' | 'engineHourlyCents'>,
  horizon: CapHorizon,
) => budget.stopClustersAtLimit && committedCents(spend, horizon) + spend.hourlyCents * horizon.hoursAhead > budget.monthlyAmountCents;

/**
 * The most a cluster's running hour may cost for it to start, or be created, under the hard cap: the hours ahead of
 * it and of everything the subscription has must fit beside the engines' hours behind. Its own engines' hours behind are
 * counted from the next run on, which stops it if they do not fit. Negative when nothing more fits; undefined without
 * the cap.
 */
export function startHeadroomCents(budget: BudgetRow | undefined, spend: Spend, horizon: CapHorizon): number | undefined {
  if (!budget?.stopClustersAtLimit) return undefined;
  return Math.floor((budget.monthlyAmountCents - committedCents(spend, horizon)) / horizon.hoursAhead) - spend.hourlyCents;
}

/** How many more billable hours at the current rate run before the cap stops the clusters (0: it stops them now). */
export function hoursUntilStop(budget: BudgetRow, spend: Spend, horizon: CapHorizon): number | undefined {
  if (spend.hourlyCents <= 0) return undefined;
  return Math.max(0, Math.floor((budget.monthlyAmountCents - committedCents(spend, horizon)) / spend.hourlyCents) - horizon.hoursAhead + 1);
}

/** The month's spend as a share of the budget, in whole percent rounded down (113.3 % is 113 %): what the mails say. */
export const spentPercent = (budget: Pick<BudgetRow, 'monthlyAmountCents'>, spend: Pick<Spend, 'consumedCents'>) =>
  Math.floor((spend.consumedCents * 100) / budget.monthlyAmountCents);

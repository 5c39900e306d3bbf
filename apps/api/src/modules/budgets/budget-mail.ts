/** What the budget mails say: the alert naming the highest threshold crossed, and the hard cap's stop. */
import { countOf, formatUsdCents } from '@kumo/contract';
import { HOUR } from '../../clock.js';
import type { AlertKey, BudgetRow } from './budgets.repository.js';
import type { Spend } from './budget-rules.js';

export interface BudgetMail {
  subject: string;
  lines: string[];
}

const highest = (alerts: AlertKey[], kind: AlertKey['kind']) =>
  alerts.filter((alert) => alert.kind === kind).reduce<number | undefined>((top, alert) => Math.max(top ?? 0, alert.threshold), undefined);

/**
 * One mail for the alerts claimed together: it names the highest actual threshold (or, with none, the highest forecast
 * one). Below the hard cap, an alert from 90 % on says when, at the current hourly rate, the clusters will be stopped.
 */
export function alertMail(name: string, budget: BudgetRow, spend: Spend, claimed: AlertKey[], now: Date): BudgetMail {
  const amount = formatUsdCents(budget.monthlyAmountCents);
  const actual = highest(claimed, 'ACTUAL');
  const forecast = highest(claimed, 'FORECAST');
  const lines: string[] = [];
  if (actual !== undefined) {
    lines.push(
      `${name} has spent ${formatUsdCents(spend.consumedCents)} this month: ${actual}% of its monthly budget of ${amount} is reached.`,
    );
  }
  if (forecast !== undefined) {
    lines.push(
      `At the current rate, the month's spend of ${name} is forecast at ${formatUsdCents(spend.forecastCents)}: ${forecast}% of its monthly budget of ${amount}.`,
    );
  }
  if (budget.stopClustersAtLimit) lines.push(...capLines(name, budget, spend, actual, now));
  const subject =
    actual !== undefined
      ? `${name}: ${actual}% of the monthly budget reached`
      : `${name}: the month's forecast reaches ${forecast}% of the budget`;
  return { subject, lines };
}

function capLines(name: string, budget: BudgetRow, spend: Spend, actual: number | undefined, now: Date): string[] {
  const left = budget.monthlyAmountCents - spend.consumedCents;
  if (left <= 0)
    return [
      `The budget of ${name} is used up: its running clusters are stopped, and none can start again this month unless the budget is raised.`,
    ];
  if (actual === undefined || actual < 90) return [];
  if (spend.hourlyCents <= 0)
    return [
      `When the month's spend reaches ${formatUsdCents(budget.monthlyAmountCents)}, the running clusters of ${name} will be stopped.`,
    ];
  const hours = left / spend.hourlyCents;
  const at = new Date(now.getTime() + Math.ceil(hours * 60) * (HOUR / 60));
  const within = hours < 1 ? 'in less than an hour' : `in about ${countOf(Math.floor(hours), 'hour')}`;
  return [
    `At the current rate of ${formatUsdCents(spend.hourlyCents)} per hour, the month's spend reaches the budget ${within} (around ${at.toUTCString()}), and the running clusters of ${name} will then be stopped (not deleted; their data is kept).`,
    'Raise the budget to keep them running.',
  ];
}

/** Why the hard cap stopped the clusters. */
export function stopMail(name: string, budget: BudgetRow, spend: Spend, stopped: string[]): BudgetMail {
  return {
    subject: `Clusters of ${name} were stopped: the monthly budget is used up`,
    lines: [
      `${name} has spent ${formatUsdCents(spend.consumedCents)} this month, its whole monthly budget of ${formatUsdCents(budget.monthlyAmountCents)}, and the budget stops its clusters at the limit.`,
      `These clusters were stopped (not deleted; their data is kept): ${stopped.join(', ')}.`,
      'Storage is still charged while they are stopped. They can start again when the budget is raised, or next month.',
    ],
  };
}

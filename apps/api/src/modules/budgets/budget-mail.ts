/** What the budget mails say: the alert naming the highest threshold crossed, and the hard cap's stop. */
import { countOf, formatUsdCents } from '@kumo/contract';
import { formatDateTime } from '../../lib/dates.js';
import type { AlertKey, BudgetRow } from './budgets.repository.js';
import { capReached, hoursUntilStop, spentPercent, type CapHorizon, type Spend } from './budget-rules.js';

export interface BudgetMail {
  subject: string;
  lines: string[];
}

const highest = (alerts: AlertKey[], kind: AlertKey['kind']) =>
  alerts.filter((alert) => alert.kind === kind).reduce<number | undefined>((top, alert) => Math.max(top ?? 0, alert.threshold), undefined);

/** When the mail is written and how far the hard cap looks ahead: what its "when" is worked out from. */
export interface MailMoment {
  now: Date;
  horizon: CapHorizon;
  /** Real milliseconds one billable hour lasts (shorter in the simulated cloud), to date the stop. */
  hourMs: number;
}

/**
 * One mail for the alerts claimed together: it names the highest actual threshold (or, with none, the highest forecast
 * one) and says the real share spent. With the hard cap, an alert from 90 % on says when the clusters will be stopped.
 */
export function alertMail(name: string, budget: BudgetRow, spend: Spend, claimed: AlertKey[], moment: MailMoment): BudgetMail {
  const amount = formatUsdCents(budget.monthlyAmountCents);
  const actual = highest(claimed, 'ACTUAL');
  const forecast = highest(claimed, 'FORECAST');
  const lines: string[] = [];
  if (actual !== undefined) {
    lines.push(
      `${name} has spent ${formatUsdCents(spend.consumedCents)} this month: ${spentPercent(budget, spend)}% of its monthly budget of ${amount}, past the ${actual}% alert.`,
    );
  }
  if (forecast !== undefined) {
    lines.push(
      `At the current rate, the month's spend of ${name} is forecast at ${formatUsdCents(spend.forecastCents)}: ${forecast}% of its monthly budget of ${amount}.`,
    );
  }
  if (budget.stopClustersAtLimit) lines.push(...capLines(name, budget, spend, actual, moment));
  const subject =
    actual !== undefined
      ? `${name}: ${actual}% of the monthly budget reached`
      : `${name}: the month's forecast reaches ${forecast}% of the budget`;
  return { subject, lines };
}

function capLines(name: string, budget: BudgetRow, spend: Spend, actual: number | undefined, moment: MailMoment): string[] {
  if (capReached(budget, spend, moment.horizon))
    return [
      `The next hours of ${name} would pass its budget: its running clusters are being stopped, and none can start again this month unless the budget is raised.`,
    ];
  if (actual === undefined || actual < 90) return [];
  const hours = hoursUntilStop(budget, spend, moment.horizon);
  if (hours === undefined)
    return [
      `Before the month's spend passes ${formatUsdCents(budget.monthlyAmountCents)}, the running clusters of ${name} will be stopped.`,
    ];
  const at = new Date(moment.now.getTime() + hours * moment.hourMs);
  // Never 0 here: then the cap is reached, and said so above.
  return [
    `At the current rate of ${formatUsdCents(spend.hourlyCents)} per hour, the running clusters of ${name} will be stopped in about ${countOf(hours, 'hour')} (around ${formatDateTime(at)}), at a month's spend of about ${formatUsdCents(spend.consumedCents + hours * spend.hourlyCents)}, before another hour would pass the budget.`,
    'They will be stopped, not deleted: their data is kept. Raise the budget to keep them running.',
  ];
}

/** Why the hard cap stopped the clusters, with the real spend: it stops them before the next hours would pass the budget. */
export function stopMail(name: string, budget: BudgetRow, spend: Spend, stopped: string[]): BudgetMail {
  const amount = formatUsdCents(budget.monthlyAmountCents);
  return {
    subject: `Clusters of ${name} were stopped at ${spentPercent(budget, spend)}% of the monthly budget`,
    lines: [
      `${name} has spent ${formatUsdCents(spend.consumedCents)} this month, ${spentPercent(budget, spend)}% of its monthly budget of ${amount}. At ${formatUsdCents(spend.hourlyCents)} per hour, its next hours would pass the budget, which stops its clusters at the limit.`,
      `These clusters were stopped (not deleted; their data is kept): ${stopped.join(', ')}.`,
      'Storage is still charged while they are stopped. They can start again when the budget is raised, or next month.',
    ],
  };
}

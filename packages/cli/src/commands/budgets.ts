/** `kumo budgets get|set|delete`: a subscription's monthly budget and its alert thresholds. */
import type { Command } from 'commander';
import { answer, type Schemas } from '../api.js';
import type { Context } from '../context.js';
import { dateTime, money, yesNo } from '../output/format.js';
import { keyValues } from '../output/table.js';
import { pattern, subscriptionOf, uuid, withJson, type JsonOption } from './shared.js';

export function budgetDetails(budget: Schemas['Budget']): string {
  const alerts = budget.alerts.map((alert) => `${alert.threshold}% ${alert.kind.toLowerCase()} on ${dateTime(alert.sent_at)}`);
  return keyValues([
    ['Subscription', budget.subscription_id],
    ['Monthly budget', budget.monthly_amount === null ? 'none' : money(budget.monthly_amount)],
    ['Thresholds', budget.thresholds.map((threshold) => `${threshold}%`).join(', ')],
    ['Alert on forecast', yesNo(budget.alert_on_forecast)],
    ['Stop clusters at limit', yesNo(budget.stop_clusters_at_limit)],
    ['Month to date', money(budget.month_to_date)],
    ['Forecast', money(budget.forecast)],
    ['Headroom per hour', budget.start_headroom_per_hour === null ? '-' : money(budget.start_headroom_per_hour)],
    ['Alerts this month', alerts.length > 0 ? alerts.join('; ') : 'none'],
  ]);
}

interface SetOptions extends JsonOption {
  subscription?: string;
  amount: string;
  thresholds?: number[];
  alertOnForecast?: boolean;
  stopClustersAtLimit?: boolean;
}

/** "50,80,100" as whole percentages; the API checks their range and count. */
function thresholds(value: string): number[] {
  return pattern(
    /^\d+(\s*,\s*\d+)*$/,
    '50,80,100',
  )(value)
    .split(',')
    .map((part) => Number(part.trim()));
}

export function registerBudgets(program: Command, context: Context): void {
  const budgets = program.command('budgets').description("A subscription's monthly budget and its alerts");
  const subscriptionOption = [
    '--subscription <id>',
    'the subscription (needed when the account has several)',
    uuid('the subscription id'),
  ] as const;

  withJson(budgets.command('get'))
    .description("Show the budget, the month's spend and forecast, and the alerts sent")
    .option(...subscriptionOption)
    .action(async (options: JsonOption & { subscription?: string }) => {
      const subscriptionId = await subscriptionOf(context, options.subscription);
      const params = { path: { subscriptionId } };
      const budget = await answer(context.client().GET('/api/subscription/{subscriptionId}/budget', { params }));
      context.print(options.json === true, budget, budgetDetails);
    });

  withJson(budgets.command('set'))
    .description('Set the monthly budget; what is not given keeps its current value')
    .option(...subscriptionOption)
    .requiredOption(
      '--amount <dollars>',
      'the monthly budget in US dollars, e.g. 1500 or 1500.50',
      pattern(/^\d[\d,]*(\.\d+)?$/, '1500.00'),
    )
    .option('--thresholds <list>', 'alert at these percentages of the budget, e.g. 50,80,100', thresholds)
    .option('--alert-on-forecast', "also alert when the month's forecast crosses a threshold")
    .option('--no-alert-on-forecast', 'alert on actual spend only')
    .option('--stop-clusters-at-limit', 'stop the clusters when the budget is spent')
    .option('--no-stop-clusters-at-limit', 'keep the clusters running past the budget')
    .addHelpText('after', '\nExample:\n  kumo budgets set --amount 2000 --thresholds 50,80,100 --alert-on-forecast')
    .action(async (options: SetOptions) => {
      const subscriptionId = await subscriptionOf(context, options.subscription);
      const params = { path: { subscriptionId } };
      const client = context.client();
      const current = await answer(client.GET('/api/subscription/{subscriptionId}/budget', { params }));
      const body = {
        monthly_amount: options.amount.replaceAll(',', ''),
        thresholds: options.thresholds ?? current.thresholds,
        alert_on_forecast: options.alertOnForecast ?? current.alert_on_forecast,
        stop_clusters_at_limit: options.stopClustersAtLimit ?? current.stop_clusters_at_limit,
      };
      const saved = await answer(client.PUT('/api/subscription/{subscriptionId}/budget', { params, body }));
      context.print(options.json === true, saved, budgetDetails);
    });

  withJson(budgets.command('delete'))
    .description('Remove the budget: no more alerts, and clusters are not stopped at a limit')
    .option(...subscriptionOption)
    .action(async (options: JsonOption & { subscription?: string }) => {
      const subscriptionId = await subscriptionOf(context, options.subscription);
      const params = { path: { subscriptionId } };
      const budget = await answer(context.client().DELETE('/api/subscription/{subscriptionId}/budget', { params }));
      context.print(options.json === true, budget, budgetDetails);
    });
}

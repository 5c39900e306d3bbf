/** `kumo subscriptions list`. */
import type { Command } from 'commander';
import { answer, type Schemas } from '../api.js';
import type { Context } from '../context.js';
import { money, text } from '../output/format.js';
import { table } from '../output/table.js';
import { withJson, type JsonOption } from './shared.js';

export function subscriptionsTable(subscriptions: readonly Schemas['Subscription'][]): string {
  return table(
    subscriptions,
    [
      { header: 'ID', value: (row) => row.subscription_id },
      { header: 'NAME', value: (row) => row.subscription_name },
      { header: 'STATUS', value: (row) => text(row.status) },
      { header: 'BALANCE', value: (row) => money(row.balance), align: 'right' },
      { header: 'CREDITS', value: (row) => money(row.credits), align: 'right' },
      { header: 'THIS MONTH', value: (row) => money(row.consumed_amount), align: 'right' },
      { header: 'FORECAST', value: (row) => money(row.forecasted_amount), align: 'right' },
      { header: 'CLUSTERS', value: (row) => String(row.clusters.length), align: 'right' },
    ],
    'No subscriptions.',
  );
}

export function registerSubscriptions(program: Command, context: Context): void {
  const subscriptions = program.command('subscriptions').description("The account's subscriptions");
  withJson(subscriptions.command('list'))
    .description('List the subscriptions with their balance, credits and the month’s usage and forecast')
    .action(async (options: JsonOption) => {
      const list = await answer(context.client().GET('/api/subscription/list'));
      context.print(options.json === true, list, subscriptionsTable);
    });
}

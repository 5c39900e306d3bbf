/** `kumo webhooks list`: the account's event endpoints and how their last deliveries went. */
import type { Command } from 'commander';
import { answer, type Schemas } from '../api.js';
import type { Context } from '../context.js';
import { dateTime } from '../output/format.js';
import { table } from '../output/table.js';
import { withJson, type JsonOption } from './shared.js';

export function webhooksTable(webhooks: Schemas['Webhooks']): string {
  return table(
    webhooks,
    [
      { header: 'ID', value: (row) => row.webhook_id },
      { header: 'URL', value: (row) => row.url },
      { header: 'EVENTS', value: (row) => row.events.join(',') },
      { header: 'CREATED', value: (row) => dateTime(row.created_at) },
      {
        header: 'LAST DELIVERY',
        value: (row) => {
          const last = row.deliveries[0];
          return last ? `${last.state} ${last.type} ${dateTime(last.created_at)}` : '-';
        },
      },
    ],
    'No webhook endpoints.',
  );
}

export function registerWebhooks(program: Command, context: Context): void {
  const webhooks = program.command('webhooks').description("The account's webhook endpoints");
  withJson(webhooks.command('list'))
    .description('List the endpoints and the state of each one’s last delivery')
    .addHelpText(
      'after',
      "\nA personal API token reads each endpoint's address as its origin only (https://hooks.example.com/…); adding, removing and testing endpoints is for a signed-in person in the console.",
    )
    .action(async (options: JsonOption) => {
      const list = await answer(context.client().GET('/api/account/webhooks'));
      context.print(options.json === true, list, webhooksTable);
    });
}

/** `kumo statements get --month YYYY-MM`: a subscription's monthly statement, as lines and totals or as its PDF. */
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { answer, type Schemas } from '../api.js';
import type { Context } from '../context.js';
import { CliError, EXIT } from '../errors.js';
import { money } from '../output/format.js';
import { keyValues, table } from '../output/table.js';
import { pattern, subscriptionOf, uuid, withJson, type JsonOption } from './shared.js';

type Statement = Schemas['Statement'];

/** The sum of amounts in dollars, added in whole cents so that no float error shows. */
function total(lines: readonly { amount: number }[]): number {
  return lines.reduce((cents, line) => cents + Math.round(line.amount * 100), 0) / 100;
}

const counted = (lines: readonly { amount: number }[]) =>
  lines.length === 0 ? money(0) : `${money(total(lines))} (${lines.length} line${lines.length === 1 ? '' : 's'})`;

export function statementText(statement: Statement): string {
  const head = `Statement for ${statement.month}: ${statement.subscription_name} (${statement.subscription_id})\n`;
  const owner = `Account owner: ${statement.account_owner.name} <${statement.account_owner.email}>, amounts in ${statement.currency}\n\n`;
  const lines = keyValues([
    ['Opening balance', money(statement.opening_balance)],
    ['Top-ups', counted(statement.top_ups)],
    ['Staff additions', counted(statement.staff_additions)],
    ['Free credits granted', counted(statement.free_credits_granted)],
    ['Free credits expired', counted(statement.free_credits_expired)],
    ['Refunds', counted(statement.refunds)],
    ['Transfers', counted(statement.transfers)],
    ["Usage of the month's hours", money(-statement.usage.total)],
    ['Usage of earlier months', money(-total(statement.usage.earlier_months))],
    ['Posted in a later month', money(statement.usage.posted_later)],
    ['Movements', money(statement.movements)],
    ['Closing balance', money(statement.closing_balance)],
  ]);
  const byCluster = table(
    statement.usage.by_cluster,
    [
      { header: 'CLUSTER', value: (row) => row.cluster_name },
      { header: 'ID', value: (row) => row.cluster_id },
      { header: 'USAGE', value: (row) => money(row.amount), align: 'right' },
    ],
    'No cluster usage this month.',
  );
  return `${head}${owner}${lines}\n${byCluster}`;
}

interface GetOptions extends JsonOption {
  subscription?: string;
  month: string;
  pdf?: string;
}

export function registerStatements(program: Command, context: Context): void {
  const statements = program.command('statements').description("A subscription's monthly statements");
  withJson(statements.command('get'))
    .description('Show the statement of a month: opening balance, every movement, closing balance')
    .option('--subscription <id>', 'the subscription (needed when the account has several)', uuid('the subscription id'))
    .requiredOption('--month <month>', 'the month, YYYY-MM', pattern(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM'))
    .option('--pdf <file>', 'save the statement as PDF to this file instead')
    .addHelpText('after', '\nExample:\n  kumo statements get --month 2026-10 --pdf statement-2026-10.pdf')
    .action(async (options: GetOptions) => {
      const subscriptionId = await subscriptionOf(context, options.subscription);
      const path = { subscriptionId };
      const client = context.client();
      if (options.pdf) {
        const query = { month: options.month, format: 'pdf' as const };
        const pdf = await answer(
          client.GET('/api/subscription/statement/{subscriptionId}', { params: { path, query }, parseAs: 'arrayBuffer' }),
        );
        writeFileSync(options.pdf, Buffer.from(pdf), { mode: 0o600 });
        context.io.stderr(`Statement written to ${options.pdf}.\n`);
        return;
      }
      const query = { month: options.month, format: 'json' as const };
      const statement = await answer(client.GET('/api/subscription/statement/{subscriptionId}', { params: { path, query } }));
      if (typeof statement === 'string') throw new CliError('the portal answered a PDF where JSON was asked for', EXIT.api);
      context.print(options.json === true, statement, statementText);
    });
}

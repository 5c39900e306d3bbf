/** `kumo usage export`: a subscription's usage by period, cluster and service, as CSV or JSON, streamed as it comes. */
import { createWriteStream } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { apiErrorOf } from '../api.js';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { pattern, subscriptionOf, uuid } from './shared.js';

const GRANULARITIES = ['HOUR', 'DAY', 'MONTH'] as const;
type Granularity = (typeof GRANULARITIES)[number];
const DAY = pattern(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');

interface ExportOptions {
  subscription?: string;
  from: string;
  to: string;
  granularity: Granularity;
  format: 'csv' | 'json';
  json?: boolean;
  output?: string;
}

function granularity(value: string): Granularity {
  const upper = value.trim().toUpperCase();
  if (!(GRANULARITIES as readonly string[]).includes(upper)) throw new InvalidArgumentError('one of hour, day, month');
  return upper as Granularity;
}

function format(value: string): 'csv' | 'json' {
  const lower = value.trim().toLowerCase();
  if (lower !== 'csv' && lower !== 'json') throw new InvalidArgumentError('csv or json');
  return lower;
}

export function registerUsage(program: Command, context: Context): void {
  const usage = program.command('usage').description("A subscription's usage");
  usage
    .command('export')
    .description('Export the usage of a date range (both days included, at most 13 months) as CSV or JSON')
    .option('--subscription <id>', 'the subscription (needed when the account has several)', uuid('the subscription id'))
    .requiredOption('--from <day>', 'the first UTC day, YYYY-MM-DD', DAY)
    .requiredOption('--to <day>', 'the last UTC day, YYYY-MM-DD', DAY)
    .option('--granularity <period>', 'one row per HOUR, DAY or MONTH', granularity, 'DAY')
    .option('--format <format>', 'csv or json', format, 'csv')
    .option('--json', 'the same as --format json')
    .option('-o, --output <file>', 'write to this file instead of standard output')
    .addHelpText('after', '\nExample:\n  kumo usage export --from 2026-01-01 --to 2026-03-31 --granularity month --format csv -o q1.csv')
    .action(async (options: ExportOptions) => {
      if (options.from > options.to) throw usageError('--to is before --from');
      const subscriptionId = await subscriptionOf(context, options.subscription);
      const query = {
        from: options.from,
        to: options.to,
        granularity: options.granularity,
        format: options.json ? ('json' as const) : options.format,
      };
      const { data, error, response } = await context
        .client()
        .GET('/api/subscription/consumption/export/{subscriptionId}', { params: { path: { subscriptionId }, query }, parseAs: 'stream' });
      if (!response.ok || !data) throw apiErrorOf(response, await errorBody(error));
      const target = options.output ? createWriteStream(options.output, { mode: 0o600 }) : textWriter((text) => context.io.stdout(text));
      await pipeline(Readable.fromWeb(data as Parameters<typeof Readable.fromWeb>[0]), target);
      if (options.output) context.io.stderr(`Usage written to ${options.output}.\n`);
    });
}

/** A writable that hands on text, a character split across two chunks kept whole. */
function textWriter(write: (text: string) => void): Writable {
  const decoder = new TextDecoder();
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      write(decoder.decode(chunk, { stream: true }));
      done();
    },
    final(done) {
      const rest = decoder.decode();
      if (rest) write(rest);
      done();
    },
  });
}

/** With parseAs: 'stream', an error answer's body is read as text and parsed when it is JSON. */
async function errorBody(error: unknown): Promise<unknown> {
  if (typeof error !== 'string') return error;
  try {
    return JSON.parse(error) as unknown;
  } catch {
    return undefined;
  }
}

/** What the commands share: the --json option, argument checks that end as usage errors, the subscription to act on. */
import { randomUUID } from 'node:crypto';
import { InvalidArgumentError, type Command } from 'commander';
import { answer } from '../api.js';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';

export interface JsonOption {
  json?: boolean;
}

/** Every command that prints takes --json: the API's JSON as it came, for scripts and jq. */
export function withJson(command: Command): Command {
  return command.option('--json', "print the API's JSON answer instead of a table");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id as the API names things: a UUID (a cluster's deployment id, a subscription id). */
export function uuid(what: string) {
  return (value: string): string => {
    if (!UUID.test(value.trim())) throw new InvalidArgumentError(`${what} is a UUID such as 0996b658-9d4a-4a38-a50c-220508673754`);
    return value.trim().toLowerCase();
  };
}

export function integerBetween(min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value.trim()) || number < min || number > max) {
      throw new InvalidArgumentError(`a whole number from ${min} to ${max}`);
    }
    return number;
  };
}

export function pattern(regex: RegExp, example: string) {
  return (value: string): string => {
    if (!regex.test(value.trim())) throw new InvalidArgumentError(`expected the form ${example}`);
    return value.trim();
  };
}

/** A key for a write the API keeps for 24 hours: the one given (to retry a write safely), else a new one. */
export function idempotencyKey(given: string | undefined): string {
  if (given === undefined) return randomUUID();
  if (!/^[\x20-\x7e]{1,255}$/.test(given)) throw usageError('--idempotency-key is 1 to 255 printable characters');
  return given;
}

/**
 * The subscription a command acts on: --subscription when given, else the account's only one. With several and none
 * named, a usage error lists them.
 */
export async function subscriptionOf(context: Context, given: string | undefined): Promise<string> {
  if (given) return given;
  const subscriptions = await answer(context.client().GET('/api/subscription/list'));
  if (subscriptions.length === 1) return subscriptions[0]!.subscription_id;
  if (subscriptions.length === 0) throw usageError('this account has no subscription yet');
  const names = subscriptions.map((subscription) => `${subscription.subscription_id} (${subscription.subscription_name})`);
  throw usageError(`name one with --subscription <id>: ${names.join(', ')}`);
}

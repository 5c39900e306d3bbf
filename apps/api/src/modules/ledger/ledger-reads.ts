import type { Clock } from '../../clock.js';
import type { Tx } from '../../db/client.js';
import type { LedgerRepository } from './ledger.repository.js';

/** What the ledger tells other modules without changing anything: history, one entry and free credits. */
export function createLedgerReads(deps: {
  repository: Pick<
    LedgerRepository,
    | 'historyEntries'
    | 'findEntryForAccount'
    | 'usageDebitsByKey'
    | 'periodEntries'
    | 'spendableGrants'
    | 'creditSummaries'
    | 'accountsWithCreditsExpiring'
  >;
  clock: Clock;
}) {
  const { repository, clock } = deps;

  return {
    /**
     * A page of a subscription's entries, newest first, each with the balance just after it (as posted, under the
     * subscription's lock, so exact); only those of `categories` when given. And how many such entries there are.
     */
    history: (subscriptionId: string, page: { offset: number; limit: number; categories?: readonly string[] }, tx?: Tx) =>
      repository.historyEntries(subscriptionId, page, tx),

    /** One entry of the account's subscriptions (a receipt's balance, or why a transaction has no receipt). */
    entryOfAccount: (accountId: string, entryId: string, tx?: Tx) => repository.findEntryForAccount(accountId, entryId, tx),

    /** Usage debits of a subscription posted under the given keys, each with the part its free credits paid. */
    usageDebitsByKey: (subscriptionId: string, keys: string[], tx?: Tx) => repository.usageDebitsByKey(subscriptionId, keys, tx),

    /** The balance at `from` and every entry made in [from, to), as applied (a grant with its expiry): a statement's movements. */
    periodEntries: (subscriptionId: string, range: { from: Date; to: Date }, tx?: Tx) =>
      repository.periodEntries(subscriptionId, range.from, range.to, tx),

    /** Each free-credit grant still to spend (the same credits `summaries` adds up), earliest-expiring first. */
    freeCreditGrants: (subscriptionId: string, tx?: Tx) => repository.spendableGrants(subscriptionId, clock.now(), tx),

    /** Accounts with free credits left on a grant expiring after `from` and by `until` (their owners are told ahead). */
    accountsWithCreditsExpiring: (from: Date, until: Date, tx?: Tx) => repository.accountsWithCreditsExpiring(from, until, tx),

    /** Unexpired free credits and their next expiry per subscription. */
    async summaries(subscriptionIds: string[], tx?: Tx) {
      const credits = await repository.creditSummaries(subscriptionIds, clock.now(), tx);
      return new Map(
        subscriptionIds.map((id) => {
          const credit = credits.find((row) => row.subscriptionId === id);
          return [
            id,
            {
              freeCreditsCents: Number(credit?.creditsCents ?? 0),
              nextCreditExpiry: credit?.nextExpiry ? new Date(credit.nextExpiry) : null,
            },
          ];
        }),
      );
    },
  };
}

/** The ledger's public face: the only writer of balances and entries, its history queries, and its jobs. */
import type { Database } from '../../db/client.js';
import type { SubscriptionBalances } from '../subscriptions/index.js';
import { createLedgerRepository } from './ledger.repository.js';
import { createLedger as createService } from './ledger.service.js';

export type { EntryKind, Ledger, PostResult, Posting } from './ledger.service.js';
export { ledgerJobs } from './ledger.service.js';

/** `balances`: the subscriptions module's balance column, which only the ledger writes. */
export function createLedger(
  deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database; balances: SubscriptionBalances },
) {
  const { balances, ...rest } = deps;
  return createService({ ...rest, repository: createLedgerRepository(deps.db, balances) });
}

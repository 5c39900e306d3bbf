/** The ledger's public face: the only writer of balances and entries, its history queries, and its jobs. */
import type { Database } from '../../db/client.js';
import { createLedgerRepository } from './ledger.repository.js';
import { createLedger as createService } from './ledger.service.js';

export type { EntryKind, Ledger, PostResult, Posting } from './ledger.service.js';
export { ledgerJobs } from './ledger.service.js';

export function createLedger(deps: Omit<Parameters<typeof createService>[0], 'ledgerRepository'> & { db: Database }) {
  return createService({ ...deps, ledgerRepository: createLedgerRepository(deps.db) });
}

/** The billing module's public face: adding funds by card, the transaction history and receipts, the webhook, and its jobs. */
import type { Database } from '../../db/client.js';
import { createBillingRepository } from './billing.repository.js';
import { createBillingService as createService } from './billing.service.js';

export type { BillingService } from './billing.service.js';
export type { AutomaticPurchase } from './automatic-purchases.js';
export type { TransactionRecord } from './transaction-history.js';
export type { StatementUsage } from './statements.js';
export { toTransactionPageWire } from './presentation.js';
export { billingJobs } from './billing.service.js';
export { billingRoutes, stripeWebhookRoutes } from './billing.routes.js';

export function createBillingService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  return createService({ ...deps, repository: createBillingRepository(deps.db) });
}

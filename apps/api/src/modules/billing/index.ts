/** The billing module's public face: adding funds by card, the transaction history and receipts, the webhook, and its jobs. */
import type { Database } from '../../db/client.js';
import { createBillingRepository } from './billing.repository.js';
import { createBillingService as createService } from './billing.service.js';

export type { BillingService } from './billing.service.js';
export { billingJobs } from './billing.service.js';
export { billingRoutes, stripeWebhookRoutes } from './billing.routes.js';

export function createBillingService(deps: Omit<Parameters<typeof createService>[0], 'billingRepository'> & { db: Database }) {
  return createService({ ...deps, billingRepository: createBillingRepository(deps.db) });
}

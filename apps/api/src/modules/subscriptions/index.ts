/** The subscriptions module's public face: the account's subscriptions and their routes. */
import type { Database } from '../../db/client.js';
import { createSubscriptionsRepository } from './subscriptions.repository.js';
import { createSubscriptionsService as createService } from './subscriptions.service.js';

export type {
  DeletionStep,
  MonthSpends,
  SubscriptionSummary,
  SubscriptionWithMonth,
  SubscriptionsService,
} from './subscriptions.service.js';
export { toSubscriptionWire } from './presentation.js';
export { subscriptionsRoutes } from './subscriptions.routes.js';
export { createSubscriptionBalances, type SubscriptionBalances } from './subscription-balances.js';
export { subscriptionDirectory } from './subscriptions.views.js';

export function createSubscriptionsService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  return createService({ ...deps, repository: createSubscriptionsRepository(deps.db) });
}

/** The automatic top-up module's public face: the service (settings, saved card, the charge after metering), its routes and jobs. */
import { SANDBOX_SETUP_EVENTS_QUEUE } from '../../adapters/payments/index.js';
import type { Database } from '../../db/client.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { AUTO_TOP_UP_CHARGE_QUEUE } from './auto-top-up-charges.js';
import { createAutoTopUpRepository } from './auto-top-up.repository.js';
import { createAutoTopUpService as createService, type AutoTopUpService } from './auto-top-up.service.js';

export type { AutoTopUpService } from './auto-top-up.service.js';
export { AUTO_TOP_UP_CHARGE_QUEUE, chargeKey } from './auto-top-up-charges.js';
export { autoTopUpRoutes } from './auto-top-up.routes.js';

export function createAutoTopUpService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  return createService({ ...deps, repository: createAutoTopUpRepository(deps.db) });
}

export function autoTopUpJobs(autoTopUp: AutoTopUpService): JobDefinition[] {
  return [
    {
      queue: AUTO_TOP_UP_CHARGE_QUEUE,
      // A provider out of reach: tried again with backoff under the same idempotency key; the next metering run
      // hands a charge still pending to the queue again.
      retryLimit: 8,
      retryDelaySeconds: 30,
      handler: async (data) => {
        await autoTopUp.charge(String(data.key));
      },
    },
    {
      queue: SANDBOX_SETUP_EVENTS_QUEUE,
      retryLimit: 5,
      retryDelaySeconds: 2,
      handler: async (data) => {
        await autoTopUp.cardSaved(String(data.subscription_id));
      },
    },
  ];
}

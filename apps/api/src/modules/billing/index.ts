import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sandboxCheckoutRoutes } from '../../adapters/payments/sandbox/sandbox.routes.js';
import type { TokenVerifier } from '../../http/auth-guard.js';
import { createPayments, type PaymentsConfig } from '../../adapters/payments/index.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { JobDefinition, JobQueue } from '../../jobs/job-queue.js';
import { createLedgerRepository } from '../ledger/ledger.repository.js';
import { createLedger, ledgerJobs } from '../ledger/ledger.service.js';
import { createSubscriptionsRepository } from '../subscriptions/subscriptions.repository.js';
import { subscriptionsRoutes } from '../subscriptions/subscriptions.routes.js';
import { createSubscriptionsService } from '../subscriptions/subscriptions.service.js';
import { createBillingRepository } from './billing.repository.js';
import { billingRoutes, stripeWebhookRoutes } from './billing.routes.js';
import { billingJobs, createBillingService } from './billing.service.js';

/** Wires the money modules: the ledger, subscriptions, and billing with its payment provider. */
export function createMoneyServices(deps: {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  logger: FastifyBaseLogger;
  publicUrl: string;
  payments: PaymentsConfig;
}) {
  const { db, clock, logger, publicUrl } = deps;
  const ledger = createLedger({ db, ledgerRepository: createLedgerRepository(db), clock });
  const subscriptions = createSubscriptionsService({ db, subscriptionsRepository: createSubscriptionsRepository(db), ledger, clock });
  const payments = createPayments(deps.payments, { db, clock, jobs: deps.jobs, publicUrl });
  const billing = createBillingService({
    db,
    billingRepository: createBillingRepository(db),
    subscriptions,
    ledger,
    gateway: payments.gateway,
    clock,
    publicUrl,
    logger,
  });
  return { ledger, subscriptions, billing, paymentGateway: payments.gateway, sandboxCheckout: payments.sandbox };
}
export type MoneyServices = ReturnType<typeof createMoneyServices>;

export function moneyJobs(money: Pick<MoneyServices, 'ledger' | 'billing'>): JobDefinition[] {
  return [...ledgerJobs(money.ledger), ...billingJobs(money.billing)];
}

/** The money routes: subscriptions, funds, and the payment provider's webhook or the sandbox's hosted checkout. */
export function moneyRoutes(money: MoneyServices, verify: TokenVerifier) {
  return async function register(app: FastifyInstance): Promise<void> {
    await app.register(subscriptionsRoutes(money.subscriptions, verify));
    await app.register(billingRoutes(money.billing, verify));
    if (money.paymentGateway.kind === 'stripe') await app.register(stripeWebhookRoutes(money.billing));
    if (money.sandboxCheckout) await app.register(sandboxCheckoutRoutes(money.sandboxCheckout));
  };
}

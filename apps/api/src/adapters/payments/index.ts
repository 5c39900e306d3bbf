import type { Clock } from '../../clock.js';
import { HOUR } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { PaymentGatewayError, WebhookSignatureError, type PaymentGateway } from './payment-gateway.js';
import { createSandboxGateway, type SandboxCheckout } from './sandbox/sandbox-gateway.js';
import { createSandboxRepository } from './sandbox/sandbox.repository.js';
import { createStripeGateway } from './stripe-gateway.js';

export type {
  CheckoutState,
  PaymentGateway,
  SavedCardCharge,
  SavedCardChargeResult,
  SavedCardDetails,
  SavedCardLookup,
  SetupEvent,
  SetupState,
} from './payment-gateway.js';
export { PaymentGatewayError, WebhookSignatureError, describeCard } from './payment-gateway.js';
/** The queue the sandbox checkout's payment events travel on; billing works them like Stripe's webhooks. */
export { SANDBOX_EVENTS_QUEUE } from './sandbox/sandbox-gateway.js';
/** The queue the sandbox's saved-card notifications travel on; automatic top-up works them like Stripe's webhooks. */
export { SANDBOX_SETUP_EVENTS_QUEUE } from './sandbox/sandbox-setup.js';

export interface PaymentsConfig {
  /** Both set: Stripe Checkout. Neither: the sandbox checkout served by the portal. */
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  /** A ready driver, used instead of either. */
  gateway?: PaymentGateway;
  /** False in production: the sandbox adds funds without charging anyone, so without Stripe card payments are off. */
  allowSandbox?: boolean;
  /** Hours an unpaid checkout stays open (CHECKOUT_EXPIRY_HOURS, at most Stripe's 24). */
  checkoutExpiryHours?: number;
}

/** What runs when no real provider is configured and the sandbox is not allowed: every checkout is refused. */
const unconfiguredGateway: PaymentGateway = {
  kind: 'stripe',
  createCheckout: async () => {
    throw new PaymentGatewayError('Card payments are not configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)');
  },
  retrieveCheckout: async () => {
    throw new PaymentGatewayError('Card payments are not configured');
  },
  expireCheckout: async () => {
    throw new PaymentGatewayError('Card payments are not configured');
  },
  parseWebhook: () => {
    throw new WebhookSignatureError('Card payments are not configured');
  },
  createSetup: async () => {
    throw new PaymentGatewayError('Card payments are not configured');
  },
  retrieveSetup: async () => {
    throw new PaymentGatewayError('Card payments are not configured');
  },
  chargeSaved: async () => {
    throw new PaymentGatewayError('Card payments are not configured');
  },
  findSavedCharge: async () => {
    throw new PaymentGatewayError('Card payments are not configured');
  },
};

/** Chooses the payment provider from the configuration; the sandbox is the embedded default. */
export function createPayments(config: PaymentsConfig, deps: { db: Database; clock: Clock; jobs: JobQueue; publicUrl: string }) {
  const checkoutLifetimeMs = (config.checkoutExpiryHours ?? 24) * HOUR;
  return { ...chooseGateway(config, deps, checkoutLifetimeMs), checkoutLifetimeMs };
}

function chooseGateway(
  config: PaymentsConfig,
  deps: { db: Database; clock: Clock; jobs: JobQueue; publicUrl: string },
  checkoutLifetimeMs: number,
): { gateway: PaymentGateway; sandbox?: SandboxCheckout } {
  if (config.gateway) return { gateway: config.gateway, sandbox: undefined };
  if (config.stripeSecretKey && config.stripeWebhookSecret) {
    return {
      gateway: createStripeGateway({
        secretKey: config.stripeSecretKey,
        webhookSecret: config.stripeWebhookSecret,
        clock: deps.clock,
        sessionLifetimeMs: checkoutLifetimeMs,
      }),
      sandbox: undefined,
    };
  }
  if (config.allowSandbox === false) return { gateway: unconfiguredGateway, sandbox: undefined };
  const sandbox: SandboxCheckout = createSandboxGateway({
    repository: createSandboxRepository(deps.db),
    clock: deps.clock,
    publicUrl: deps.publicUrl,
    jobs: deps.jobs,
    sessionLifetimeMs: checkoutLifetimeMs,
  });
  return { gateway: sandbox.gateway, sandbox };
}

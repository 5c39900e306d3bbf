import Stripe from 'stripe';
import { MESSAGES } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { DAY, MINUTE } from '../../clock.js';
import {
  PaymentGatewayError,
  WebhookSignatureError,
  describeCard,
  type CheckoutOutcome,
  type CheckoutState,
  type PaymentGateway,
} from './payment-gateway.js';
import { createStripeSavedCards, setupEventOf } from './stripe-saved-cards.js';

export interface StripeGatewayOptions {
  secretKey: string;
  webhookSecret: string;
  clock: Clock;
  /** Maximum age of a webhook delivery, in seconds (Stripe's own default is 300). */
  toleranceSeconds?: number;
  /** Where Stripe's HTTP calls go; the default is the platform's fetch. */
  httpClient?: ReturnType<typeof Stripe.createFetchHttpClient>;
  /** How long a session stays open unpaid; Stripe's default (24 hours) when absent. */
  sessionLifetimeMs?: number;
}

type Session = Stripe.Checkout.Session;
type PaymentIntent = Stripe.PaymentIntent;

const DEFAULT_TOLERANCE_SECONDS = 300;

function sessionOutcome(session: Session, intent: PaymentIntent | null): CheckoutOutcome {
  if (session.status === 'complete') return session.payment_status === 'paid' ? 'PAID' : 'PROCESSING';
  if (session.status === 'expired') return 'EXPIRED';
  // Still open: a card declined on Stripe's page leaves its error on the payment intent.
  return intent?.last_payment_error ? 'FAILED' : 'OPEN';
}

function stateOfSession(session: Session, overrides: Partial<CheckoutState> = {}): CheckoutState | null {
  const purchaseId = session.client_reference_id ?? session.metadata?.purchase_id;
  if (!purchaseId) return null;
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
  const method = intent && typeof intent.payment_method === 'object' ? intent.payment_method : null;
  return {
    purchaseId,
    sessionId: session.id,
    outcome: sessionOutcome(session, intent),
    amountCents: session.amount_total ?? undefined,
    currency: session.currency?.toUpperCase(),
    paymentMethod: describeCard(method?.card?.brand, method?.card?.last4) ?? (method ? 'Card' : undefined),
    failureMessage: intent?.last_payment_error?.message ?? undefined,
    ...overrides,
  };
}

function stateOfFailedIntent(intent: PaymentIntent): CheckoutState | null {
  const purchaseId = intent.metadata?.purchase_id;
  if (!purchaseId) return null;
  return {
    purchaseId,
    outcome: 'FAILED',
    amountCents: intent.amount,
    currency: intent.currency.toUpperCase(),
    failureMessage: intent.last_payment_error?.message ?? MESSAGES.cardDeclined,
  };
}

/** Reads the t= timestamp of a Stripe-Signature header. */
function signedAt(header: string): number | undefined {
  const value = header
    .split(',')
    .map((part) => part.split('='))
    .find(([key]) => key?.trim() === 't')?.[1];
  return value && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Stripe Checkout Sessions in payment mode, and Stripe's signed webhooks verified on the raw body. */
export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Kumo Cloud' },
    ...(options.httpClient ? { httpClient: options.httpClient } : {}),
  });
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;

  async function call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new PaymentGatewayError(error instanceof Error ? error.message : String(error), { cause: error });
    }
  }

  async function retrieve(sessionId: string): Promise<CheckoutState> {
    const session = await call(() => stripe.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent.payment_method'] }));
    const state = stateOfSession(session);
    if (!state) throw new PaymentGatewayError(`checkout session ${sessionId} carries no purchase reference`);
    return state;
  }

  return {
    kind: 'stripe',
    ...createStripeSavedCards(stripe, call),

    async createCheckout(request) {
      const metadata = { purchase_id: request.purchaseId, subscription_id: request.subscriptionId };
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            client_reference_id: request.purchaseId,
            customer_email: request.customerEmail,
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: request.currency.toLowerCase(),
                  unit_amount: request.amountCents,
                  product_data: { name: 'Kumo Cloud funds', description: request.description },
                },
              },
            ],
            metadata,
            payment_intent_data: { metadata, description: request.description },
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            // Stripe takes 30 minutes to 24 hours; its default is the 24 hours.
            ...(options.sessionLifetimeMs && options.sessionLifetimeMs < DAY
              ? { expires_at: Math.floor((options.clock.now().getTime() + Math.max(options.sessionLifetimeMs, 31 * MINUTE)) / 1000) }
              : {}),
          },
          // A retried create (network blip) returns the same session instead of opening a second one.
          { idempotencyKey: `checkout-${request.purchaseId}` },
        ),
      );
      if (!session.url) throw new PaymentGatewayError(`checkout session ${session.id} has no URL`);
      return { sessionId: session.id, url: session.url };
    },

    retrieveCheckout: retrieve,

    async expireCheckout(sessionId) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
      } catch {
        // Stripe refuses to expire a session that is no longer open (paid, or expired already): read what it is.
      }
      return retrieve(sessionId);
    },

    parseWebhook(rawBody, signatureHeader) {
      if (!signatureHeader) throw new WebhookSignatureError('No Stripe-Signature header');
      const now = options.clock.now().getTime();
      const timestamp = signedAt(signatureHeader);
      // Stripe's check bounds only the age; a timestamp from the future is refused here as well.
      if (timestamp !== undefined && timestamp * 1000 - now > tolerance * 1000) throw new WebhookSignatureError('Timestamp in the future');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signatureHeader, options.webhookSecret, tolerance, undefined, now);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'Invalid signature');
      }
      // A saved card (setup mode) is the automatic top-up's, not a purchase.
      if (event.type === 'checkout.session.completed' && event.data.object.mode === 'setup') return setupEventOf(event);
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
        case 'checkout.session.expired':
          return stateOfSession(event.data.object);
        case 'checkout.session.async_payment_failed':
          return stateOfSession(event.data.object, { outcome: 'FAILED', failureMessage: MESSAGES.paymentNotCompleted });
        case 'payment_intent.payment_failed':
          return stateOfFailedIntent(event.data.object);
        default:
          return setupEventOf(event);
      }
    },
  };
}

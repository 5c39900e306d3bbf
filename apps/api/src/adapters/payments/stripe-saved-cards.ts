/**
 * Saved cards on Stripe: Checkout in setup mode saves a card to the subscription's Customer, and an off-session
 * PaymentIntent (confirm: true) charges it with nobody present, under our idempotency key. A charge is asked about
 * later by its PaymentIntent, or found by the key in the intent's metadata once Stripe has forgotten the key itself.
 */
import Stripe from 'stripe';
import {
  PaymentGatewayError,
  type PaymentGateway,
  type SavedCardChargeResult,
  type SetupEvent,
  type SetupState,
} from './payment-gateway.js';

type Call = <T>(work: () => Promise<T>) => Promise<T>;

function setupStateOf(session: Stripe.Checkout.Session): SetupState {
  const subscriptionId = session.client_reference_id ?? session.metadata?.subscription_id;
  if (!subscriptionId) throw new PaymentGatewayError(`setup session ${session.id} carries no subscription reference`);
  const intent = typeof session.setup_intent === 'object' ? session.setup_intent : null;
  const method = intent && typeof intent.payment_method === 'object' ? intent.payment_method : null;
  const card = session.status === 'complete' && intent?.status === 'succeeded' ? method?.card : undefined;
  return {
    sessionId: session.id,
    subscriptionId,
    customerId: typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? ''),
    card:
      card && method
        ? { paymentMethodId: method.id, brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year }
        : null,
  };
}

/** A webhook about a saved card, as a nudge naming its subscription; null for every other event. */
export function setupEventOf(event: Stripe.Event): SetupEvent | null {
  if (event.type === 'checkout.session.completed' && event.data.object.mode === 'setup') {
    const subscriptionId = event.data.object.client_reference_id ?? event.data.object.metadata?.subscription_id;
    return subscriptionId ? { kind: 'setup', subscriptionId } : null;
  }
  if (event.type === 'setup_intent.succeeded') {
    const subscriptionId = event.data.object.metadata?.subscription_id;
    return subscriptionId ? { kind: 'setup', subscriptionId } : null;
  }
  return null;
}

/**
 * Stripe's refusals of an off-session charge: the bank declined it or needs the customer (3-D Secure), or the request
 * cannot succeed as made (the card detached, the customer deleted): retrying it would only be refused again. Every
 * other error (connection, Stripe's own, rate limits) is an outage, tried again later.
 */
function refusalOf(error: unknown): SavedCardChargeResult | undefined {
  if (error instanceof Stripe.errors.StripeCardError) {
    const intent = error.payment_intent;
    const needsCustomer = error.code === 'authentication_required' || intent?.status === 'requires_action';
    return {
      outcome: needsCustomer ? 'AUTHENTICATION_REQUIRED' : 'DECLINED',
      paymentIntentId: intent?.id ?? null,
      message: error.message,
    };
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError)
    return { outcome: 'DECLINED', paymentIntentId: error.payment_intent?.id ?? null, message: error.message };
  return undefined;
}

/** A payment intent's state as our answer; one Stripe has not finished with is PROCESSING, asked about again later. */
function resultOf(intent: Stripe.PaymentIntent): SavedCardChargeResult {
  switch (intent.status) {
    case 'succeeded':
      return { outcome: 'SUCCEEDED', paymentIntentId: intent.id };
    case 'requires_action':
      return { outcome: 'AUTHENTICATION_REQUIRED', paymentIntentId: intent.id, message: 'This payment requires authentication.' };
    case 'requires_payment_method':
      return { outcome: 'DECLINED', paymentIntentId: intent.id, message: intent.last_payment_error?.message ?? 'Your card was declined.' };
    case 'canceled':
      return { outcome: 'DECLINED', paymentIntentId: intent.id, message: 'The payment was canceled.' };
    default:
      return { outcome: 'PROCESSING', paymentIntentId: intent.id };
  }
}

/** Runs a charge call and reads its answer: a refusal is an answer too, anything else that goes wrong a PaymentGatewayError. */
async function answerOf<T, R>(work: () => Promise<T>, read: (value: T) => R): Promise<R | SavedCardChargeResult> {
  let value: T;
  try {
    value = await work();
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal) return refusal;
    throw new PaymentGatewayError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  return read(value);
}

export function createStripeSavedCards(
  stripe: Stripe,
  call: Call,
): Pick<PaymentGateway, 'createSetup' | 'retrieveSetup' | 'chargeSaved' | 'findSavedCharge'> {
  return {
    async createSetup(request) {
      const metadata = { subscription_id: request.subscriptionId };
      const customerId =
        request.customerId ??
        (
          await call(() =>
            stripe.customers.create(
              { email: request.customerEmail, description: request.description, metadata },
              // A retried create returns the same customer: one per subscription.
              { idempotencyKey: `customer-${request.subscriptionId}` },
            ),
          )
        ).id;
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'setup',
          customer: customerId,
          // Setup mode with the account's payment methods needs the currency they will be charged in.
          currency: 'usd',
          client_reference_id: request.subscriptionId,
          metadata,
          setup_intent_data: { metadata, description: request.description },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        }),
      );
      if (!session.url) throw new PaymentGatewayError(`setup session ${session.id} has no URL`);
      return { sessionId: session.id, url: session.url, customerId };
    },

    async retrieveSetup(sessionId) {
      return setupStateOf(await call(() => stripe.checkout.sessions.retrieve(sessionId, { expand: ['setup_intent.payment_method'] })));
    },

    async chargeSaved(request) {
      return answerOf(
        () =>
          stripe.paymentIntents.create(
            {
              amount: request.amountCents,
              currency: request.currency.toLowerCase(),
              customer: request.customerId,
              payment_method: request.paymentMethodId,
              off_session: true,
              confirm: true,
              description: request.description,
              metadata: { subscription_id: request.subscriptionId, idempotency_key: request.idempotencyKey },
            },
            { idempotencyKey: request.idempotencyKey },
          ),
        resultOf,
      );
    },

    async findSavedCharge(charge) {
      const id = charge.paymentIntentId;
      if (id) return answerOf(() => stripe.paymentIntents.retrieve(id), resultOf);
      // Search lags writes by about a minute; it is asked only about charges a day old.
      const query = `metadata['idempotency_key']:'${charge.idempotencyKey.replace(/['\\]/g, '\\$&')}'`;
      return answerOf(
        () => stripe.paymentIntents.search({ query, limit: 1 }),
        (found) => (found.data[0] ? resultOf(found.data[0]) : null),
      );
    },
  };
}

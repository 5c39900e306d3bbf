/**
 * Saved cards on Stripe: Checkout in setup mode saves a card to the subscription's Customer, and an off-session
 * PaymentIntent (confirm: true) charges it with nobody present, under our idempotency key.
 */
import Stripe from 'stripe';
import { PaymentGatewayError, type PaymentGateway, type SetupEvent, type SetupState } from './payment-gateway.js';

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

/** Stripe's words for a card refused off-session: the bank declined it, or it needs the customer (3-D Secure). */
function refusalOf(error: unknown) {
  if (!(error instanceof Stripe.errors.StripeCardError)) return undefined;
  const intent = error.payment_intent;
  const needsCustomer = error.code === 'authentication_required' || intent?.status === 'requires_action';
  return {
    outcome: needsCustomer ? ('AUTHENTICATION_REQUIRED' as const) : ('DECLINED' as const),
    paymentIntentId: intent?.id ?? null,
    message: error.message,
  };
}

export function createStripeSavedCards(stripe: Stripe, call: Call): Pick<PaymentGateway, 'createSetup' | 'retrieveSetup' | 'chargeSaved'> {
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
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(
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
        );
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal) return refusal;
        throw new PaymentGatewayError(error instanceof Error ? error.message : String(error), { cause: error });
      }
      if (intent.status === 'succeeded') return { outcome: 'SUCCEEDED', paymentIntentId: intent.id };
      if (intent.status === 'requires_action')
        return { outcome: 'AUTHENTICATION_REQUIRED', paymentIntentId: intent.id, message: 'This payment requires authentication.' };
      if (intent.status === 'requires_payment_method')
        return {
          outcome: 'DECLINED',
          paymentIntentId: intent.id,
          message: intent.last_payment_error?.message ?? 'Your card was declined.',
        };
      // Still processing: asked again with the same key later, it answers how it ended.
      throw new PaymentGatewayError(`payment intent ${intent.id} is ${intent.status}`);
    },
  };
}

import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { FakeStripe, STRIPE_SECRET_KEY, recordedCompletedSession, signedEvent } from '../../../test/support/fake-stripe.js';
import { ManualClock } from '../../../test/support/manual-clock.js';
import { PaymentGatewayError, WebhookSignatureError } from './payment-gateway.js';

const NOW = '2026-03-10T09:00:00Z';
const seconds = (clock: ManualClock) => Math.floor(clock.now().getTime() / 1000);

function setUp() {
  const clock = new ManualClock(NOW);
  const stripe = new FakeStripe();
  return { clock, stripe, gateway: stripe.gateway(clock) };
}

const checkoutRequest = {
  purchaseId: '7b1e6c2a-3f4d-4e5f-8a9b-0c1d2e3f4a5b',
  subscriptionId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  amountCents: 123_400,
  currency: 'USD',
  description: 'Funds for subscription Analytics',
  customerEmail: 'ada@example.com',
  successUrl: 'http://portal.test/subscriptions?session_id={CHECKOUT_SESSION_ID}&id=1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  cancelUrl:
    'http://portal.test/subscriptions?id=1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d&cancelled_purchase=7b1e6c2a-3f4d-4e5f-8a9b-0c1d2e3f4a5b',
};

describe('Stripe Checkout driver', () => {
  it('opens a payment-mode Checkout Session for the exact amount, idempotently per purchase', async () => {
    const { stripe, gateway } = setUp();
    const session = await gateway.createCheckout(checkoutRequest);
    expect(session.url).toBe(`https://checkout.stripe.com/c/pay/${session.sessionId}`);

    const [request] = stripe.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(request!.headers.get('authorization')).toBe(`Bearer ${STRIPE_SECRET_KEY}`);
    expect(request!.headers.get('idempotency-key')).toBe(`checkout-${checkoutRequest.purchaseId}`);
    expect(Object.fromEntries(request!.form)).toMatchObject({
      mode: 'payment',
      client_reference_id: checkoutRequest.purchaseId,
      customer_email: 'ada@example.com',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': '123400',
      'metadata[purchase_id]': checkoutRequest.purchaseId,
      'payment_intent_data[metadata][purchase_id]': checkoutRequest.purchaseId,
      success_url: checkoutRequest.successUrl,
      cancel_url: checkoutRequest.cancelUrl,
    });
  });

  it('reads the recorded completed session: paid, the amount, the card', async () => {
    const { stripe, gateway } = setUp();
    const recorded = recordedCompletedSession();
    stripe.sessions.set(String(recorded.id), recorded);
    const state = await gateway.retrieveCheckout(String(recorded.id));
    expect(state).toEqual({
      purchaseId: 'PURCHASE_ID',
      sessionId: recorded.id,
      outcome: 'PAID',
      amountCents: 123_400,
      currency: 'USD',
      paymentMethod: 'Visa •••• 4242',
      failureMessage: undefined,
    });
    const [request] = stripe.requests;
    expect(request!.path).toBe(`/v1/checkout/sessions/${String(recorded.id)}`);
    expect(request!.query.get('expand[0]')).toBe('payment_intent.payment_method');
  });

  it('reports an open session after a declined card as failed, with Stripe’s reason', async () => {
    const { stripe, gateway } = setUp();
    const { sessionId } = await gateway.createCheckout(checkoutRequest);
    const open = stripe.sessions.get(sessionId)!;
    stripe.sessions.set(sessionId, {
      ...open,
      payment_intent: {
        id: 'pi_1',
        object: 'payment_intent',
        last_payment_error: { message: 'Your card was declined.' },
        payment_method: null,
      },
    });
    expect(await gateway.retrieveCheckout(sessionId)).toMatchObject({ outcome: 'FAILED', failureMessage: 'Your card was declined.' });
  });

  it('expires an open session, and reads back a paid one Stripe will not expire', async () => {
    const { stripe, gateway } = setUp();
    const first = await gateway.createCheckout(checkoutRequest);
    expect((await gateway.expireCheckout(first.sessionId)).outcome).toBe('EXPIRED');

    const second = await gateway.createCheckout({ ...checkoutRequest, purchaseId: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e' });
    stripe.complete(second.sessionId);
    expect((await gateway.expireCheckout(second.sessionId)).outcome).toBe('PAID');
  });

  it('turns an unreachable Stripe into a payment gateway error', async () => {
    const { stripe, gateway } = setUp();
    stripe.offline = true;
    await expect(gateway.createCheckout(checkoutRequest)).rejects.toBeInstanceOf(PaymentGatewayError);
    await expect(gateway.retrieveCheckout('cs_test_x')).rejects.toBeInstanceOf(PaymentGatewayError);
  }, 60_000);
});

describe("Stripe's webhook signatures", () => {
  const completed = () => {
    const session = recordedCompletedSession();
    return { ...session, payment_intent: 'pi_3QxYzAbCdEfGhIjK0a1b2c3d' };
  };

  it('accepts a correctly signed delivery and reads the checkout from it', () => {
    const { clock, gateway } = setUp();
    const { payload, signature } = signedEvent('checkout.session.completed', completed(), { timestamp: seconds(clock) });
    expect(gateway.parseWebhook(Buffer.from(payload), signature)).toMatchObject({
      purchaseId: 'PURCHASE_ID',
      outcome: 'PAID',
      amountCents: 123_400,
      currency: 'USD',
    });
  });

  it('refuses a tampered body, a wrong secret and a missing header', () => {
    const { clock, gateway } = setUp();
    const { payload, signature } = signedEvent('checkout.session.completed', completed(), { timestamp: seconds(clock) });
    const tampered = payload.replace('"amount_total":123400', '"amount_total":99999900');
    expect(tampered).not.toBe(payload);
    expect(() => gateway.parseWebhook(Buffer.from(tampered), signature)).toThrow(WebhookSignatureError);
    const forged = signedEvent('checkout.session.completed', completed(), { timestamp: seconds(clock), secret: 'whsec_not_ours' });
    expect(() => gateway.parseWebhook(Buffer.from(forged.payload), forged.signature)).toThrow(WebhookSignatureError);
    expect(() => gateway.parseWebhook(Buffer.from(payload), undefined)).toThrow(WebhookSignatureError);
    expect(() => gateway.parseWebhook(Buffer.from(payload), 't=1,v1=deadbeef')).toThrow(WebhookSignatureError);
  });

  it('refuses a replayed delivery once it is older than five minutes, and one from the future', () => {
    const { clock, gateway } = setUp();
    const { payload, signature } = signedEvent('checkout.session.completed', completed(), { timestamp: seconds(clock) });
    clock.advance(299_000);
    expect(gateway.parseWebhook(Buffer.from(payload), signature)).not.toBeNull();
    clock.advance(2_000);
    expect(() => gateway.parseWebhook(Buffer.from(payload), signature)).toThrow(/tolerance/);
    const future = signedEvent('checkout.session.completed', completed(), { timestamp: seconds(clock) + 600 });
    expect(() => gateway.parseWebhook(Buffer.from(future.payload), future.signature)).toThrow(WebhookSignatureError);
  });

  it('maps the checkout events and ignores the rest', () => {
    const { clock, gateway } = setUp();
    const parse = (type: string, object: Record<string, unknown>) => {
      const { payload, signature } = signedEvent(type, object, { timestamp: seconds(clock) });
      const event = gateway.parseWebhook(Buffer.from(payload), signature);
      return event && 'outcome' in event ? event : null;
    };
    expect(parse('checkout.session.completed', { ...completed(), payment_status: 'unpaid' })?.outcome).toBe('PROCESSING');
    expect(parse('checkout.session.async_payment_succeeded', completed())?.outcome).toBe('PAID');
    expect(parse('checkout.session.async_payment_failed', { ...completed(), payment_status: 'unpaid' })?.outcome).toBe('FAILED');
    expect(parse('checkout.session.expired', { ...completed(), status: 'expired', payment_status: 'unpaid' })?.outcome).toBe('EXPIRED');
    expect(
      parse('payment_intent.payment_failed', {
        id: 'pi_1',
        object: 'payment_intent',
        amount: 5_000,
        currency: 'usd',
        metadata: { purchase_id: 'PURCHASE_ID' },
        last_payment_error: { message: 'Your card has insufficient funds.' },
      }),
    ).toEqual({
      purchaseId: 'PURCHASE_ID',
      outcome: 'FAILED',
      amountCents: 5_000,
      currency: 'USD',
      failureMessage: 'Your card has insufficient funds.',
    });
    expect(
      parse('payment_intent.payment_failed', {
        id: 'pi_2',
        object: 'payment_intent',
        amount: 1,
        currency: 'usd',
        metadata: { purchase_id: 'P' },
      }),
    ).toMatchObject({
      failureMessage: MESSAGES.cardDeclined,
    });
    expect(parse('customer.created', { id: 'cus_1', object: 'customer' })).toBeNull();
    expect(parse('checkout.session.completed', { ...completed(), client_reference_id: null, metadata: {} })).toBeNull();
  });
});

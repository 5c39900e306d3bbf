import { describe, expect, it } from 'vitest';
import { FakeStripe, signedEvent } from '../../../test/support/fake-stripe.js';
import { ManualClock } from '../../../test/support/manual-clock.js';
import { PaymentGatewayError } from './payment-gateway.js';

const SUBSCRIPTION = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const KEY = `auto-top-up:${SUBSCRIPTION}:2026-03-10T09:00:00.000Z`;

function setUp() {
  const clock = new ManualClock('2026-03-10T09:00:00Z');
  const stripe = new FakeStripe();
  return { clock, stripe, gateway: stripe.gateway(clock) };
}

const charge = {
  customerId: 'cus_1',
  paymentMethodId: 'pm_1',
  amountCents: 5_000,
  currency: 'USD',
  description: 'Kumo Cloud automatic top-up',
  idempotencyKey: KEY,
  subscriptionId: SUBSCRIPTION,
};

const cardError = (code: string, message: string, intentStatus: string) => ({
  error: { type: 'card_error', code, message, payment_intent: { id: 'pi_refused', object: 'payment_intent', status: intentStatus } },
});

describe('Stripe saved cards', () => {
  it('makes a Customer once per subscription and opens Checkout in setup mode for it', async () => {
    const { stripe, gateway } = setUp();
    stripe.replies.set('POST /v1/customers', { status: 200, body: { id: 'cus_new', object: 'customer' } });
    const session = await gateway.createSetup({
      subscriptionId: SUBSCRIPTION,
      customerId: null,
      customerEmail: 'ada@example.com',
      description: 'Automatic top-up of subscription Analytics',
      successUrl: `http://portal.test/subscriptions/${SUBSCRIPTION}?card=saved`,
      cancelUrl: `http://portal.test/subscriptions/${SUBSCRIPTION}`,
    });
    expect(session.customerId).toBe('cus_new');
    const [customer, checkout] = stripe.requests;
    expect(customer!.headers.get('idempotency-key')).toBe(`customer-${SUBSCRIPTION}`);
    expect(Object.fromEntries(checkout!.form)).toMatchObject({
      mode: 'setup',
      customer: 'cus_new',
      client_reference_id: SUBSCRIPTION,
      'setup_intent_data[metadata][subscription_id]': SUBSCRIPTION,
      success_url: `http://portal.test/subscriptions/${SUBSCRIPTION}?card=saved`,
    });

    await gateway.createSetup({
      ...{ subscriptionId: SUBSCRIPTION, customerEmail: 'a@b.c', description: 'd', successUrl: 's', cancelUrl: 'c' },
      customerId: 'cus_new',
    });
    expect(stripe.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(1);
  });

  it('reads the saved card back from a completed setup session', async () => {
    const { stripe, gateway } = setUp();
    stripe.sessions.set('cs_setup', {
      id: 'cs_setup',
      object: 'checkout.session',
      mode: 'setup',
      status: 'complete',
      client_reference_id: SUBSCRIPTION,
      customer: 'cus_1',
      setup_intent: {
        id: 'seti_1',
        object: 'setup_intent',
        status: 'succeeded',
        payment_method: { id: 'pm_1', object: 'payment_method', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 } },
      },
    });
    expect(await gateway.retrieveSetup('cs_setup')).toEqual({
      sessionId: 'cs_setup',
      subscriptionId: SUBSCRIPTION,
      customerId: 'cus_1',
      card: { paymentMethodId: 'pm_1', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 },
    });
    expect([...stripe.requests[0]!.query.values()]).toContain('setup_intent.payment_method');
  });

  it('charges off-session with our idempotency key and maps the answers', async () => {
    const { stripe, gateway } = setUp();
    stripe.replies.set('POST /v1/payment_intents', { status: 200, body: { id: 'pi_ok', object: 'payment_intent', status: 'succeeded' } });
    expect(await gateway.chargeSaved(charge)).toEqual({ outcome: 'SUCCEEDED', paymentIntentId: 'pi_ok' });
    const [request] = stripe.requests;
    expect(request!.headers.get('idempotency-key')).toBe(KEY);
    expect(Object.fromEntries(request!.form)).toMatchObject({
      amount: '5000',
      currency: 'usd',
      customer: 'cus_1',
      payment_method: 'pm_1',
      off_session: 'true',
      confirm: 'true',
    });

    stripe.replies.set('POST /v1/payment_intents', {
      status: 402,
      body: cardError('card_declined', 'Your card was declined.', 'requires_payment_method'),
    });
    expect(await gateway.chargeSaved(charge)).toEqual({
      outcome: 'DECLINED',
      paymentIntentId: 'pi_refused',
      message: 'Your card was declined.',
    });
    stripe.replies.set('POST /v1/payment_intents', {
      status: 402,
      body: cardError('authentication_required', 'This payment requires authentication.', 'requires_payment_method'),
    });
    expect(await gateway.chargeSaved(charge)).toMatchObject({
      outcome: 'AUTHENTICATION_REQUIRED',
      message: 'This payment requires authentication.',
    });
  });

  it('says Stripe is out of reach, down or busy instead of calling it a refusal', async () => {
    const { stripe, gateway } = setUp();
    stripe.offline = true;
    await expect(gateway.chargeSaved(charge)).rejects.toBeInstanceOf(PaymentGatewayError);
    stripe.offline = false;
    for (const [status, type] of [
      [500, 'api_error'],
      [429, 'rate_limit_error'],
    ] as const) {
      stripe.replies.set('POST /v1/payment_intents', { status, body: { error: { type, message: 'Try again later.' } } });
      await expect(gateway.chargeSaved(charge)).rejects.toBeInstanceOf(PaymentGatewayError);
    }
  });

  it("refuses, with Stripe's words, a charge whose card or customer is gone, rather than trying it again", async () => {
    const { stripe, gateway } = setUp();
    const message = "No such PaymentMethod: 'pm_1'";
    stripe.replies.set('POST /v1/payment_intents', {
      status: 400,
      body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_method', message } },
    });
    expect(await gateway.chargeSaved(charge)).toEqual({ outcome: 'DECLINED', paymentIntentId: null, message });
  });

  it('answers a charge still processing with its payment intent, and asks about that intent later without charging', async () => {
    const { stripe, gateway } = setUp();
    const intent = (status: string, extra: object = {}) => ({
      status: 200,
      body: { id: 'pi_slow', object: 'payment_intent', status, ...extra },
    });
    stripe.replies.set('POST /v1/payment_intents', intent('processing'));
    expect(await gateway.chargeSaved(charge)).toEqual({ outcome: 'PROCESSING', paymentIntentId: 'pi_slow' });

    const lookup = { paymentIntentId: 'pi_slow', idempotencyKey: KEY, paymentMethodId: 'pm_1' };
    stripe.replies.set('GET /v1/payment_intents/pi_slow', intent('processing'));
    expect(await gateway.findSavedCharge(lookup)).toEqual({ outcome: 'PROCESSING', paymentIntentId: 'pi_slow' });
    stripe.replies.set('GET /v1/payment_intents/pi_slow', intent('succeeded'));
    expect(await gateway.findSavedCharge(lookup)).toEqual({ outcome: 'SUCCEEDED', paymentIntentId: 'pi_slow' });
    stripe.replies.set(
      'GET /v1/payment_intents/pi_slow',
      intent('requires_payment_method', { last_payment_error: { message: 'Insufficient funds.' } }),
    );
    expect(await gateway.findSavedCharge(lookup)).toEqual({
      outcome: 'DECLINED',
      paymentIntentId: 'pi_slow',
      message: 'Insufficient funds.',
    });
    expect(stripe.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('finds a charge with no payment intent by the idempotency key in its metadata, and says when there is none', async () => {
    const { stripe, gateway } = setUp();
    const lookup = { paymentIntentId: null, idempotencyKey: KEY, paymentMethodId: 'pm_1' };
    const found = (data: object[]) => ({
      status: 200,
      body: { object: 'search_result', data, has_more: false, url: '/v1/payment_intents/search' },
    });
    stripe.replies.set('GET /v1/payment_intents/search', found([]));
    expect(await gateway.findSavedCharge(lookup)).toBeNull();
    expect(stripe.requests[0]!.query.get('query')).toBe(`metadata['idempotency_key']:'${KEY}'`);
    stripe.replies.set('GET /v1/payment_intents/search', found([{ id: 'pi_old', object: 'payment_intent', status: 'succeeded' }]));
    expect(await gateway.findSavedCharge(lookup)).toEqual({ outcome: 'SUCCEEDED', paymentIntentId: 'pi_old' });
    expect(stripe.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('hands the setup webhooks on as a nudge naming the subscription', () => {
    const { clock, gateway } = setUp();
    const at = Math.floor(clock.now().getTime() / 1000);
    const completed = signedEvent(
      'checkout.session.completed',
      { id: 'cs_setup', object: 'checkout.session', mode: 'setup', client_reference_id: SUBSCRIPTION },
      { timestamp: at },
    );
    expect(gateway.parseWebhook(Buffer.from(completed.payload), completed.signature)).toEqual({
      kind: 'setup',
      subscriptionId: SUBSCRIPTION,
    });
    const succeeded = signedEvent(
      'setup_intent.succeeded',
      { id: 'seti_1', object: 'setup_intent', metadata: { subscription_id: SUBSCRIPTION } },
      { timestamp: at },
    );
    expect(gateway.parseWebhook(Buffer.from(succeeded.payload), succeeded.signature)).toEqual({
      kind: 'setup',
      subscriptionId: SUBSCRIPTION,
    });
  });
});

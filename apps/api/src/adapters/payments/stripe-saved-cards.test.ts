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

  it('says Stripe is out of reach instead of calling it a refusal', async () => {
    const { stripe, gateway } = setUp();
    stripe.offline = true;
    await expect(gateway.chargeSaved(charge)).rejects.toBeInstanceOf(PaymentGatewayError);
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

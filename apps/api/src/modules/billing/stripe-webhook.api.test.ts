import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { balanceOf, cancelPurchase, createSubscription, history, paymentStatus } from '../../../test/support/checkout.js';
import { FakeStripe, signedEvent } from '../../../test/support/fake-stripe.js';
import { post } from '../../../test/support/harness.js';

const kinds = await databaseKinds();
let counter = 0;

describe.each(kinds)('card payments through Stripe on %s', (kind) => {
  let ctx: TestContext;
  const stripe = new FakeStripe();
  beforeAll(async () => {
    // The gateway is made before the context, so it reads the context's clock once that exists.
    const clock = { now: () => ctx.clock.now() };
    ctx = await startTestApp(kind, { payments: { gateway: stripe.gateway(clock) } });
  });
  afterAll(() => ctx.close());

  const now = () => Math.floor(ctx.clock.now().getTime() / 1000);
  const deliver = (payload: string, signature?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/credit/webhook/stripe',
      payload,
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature ? { 'stripe-signature': signature } : {}) },
    });

  async function checkout(amount: number) {
    const { jwt } = await signUp(ctx, `stripe${++counter}.${kind}.${Date.now()}@example.com`);
    const subscriptionId = await createSubscription(ctx, jwt, 'Analytics');
    const response = await post(ctx, '/api/credit/purchase', { amount, subscription_id: subscriptionId }, jwt);
    expect(response.statusCode).toBe(200);
    const redirect = String(response.json().redirect_url);
    const sessionId = redirect.split('/').at(-1)!;
    return { jwt, subscriptionId, sessionId, redirect };
  }

  it('sends the browser to Stripe and credits the checkout once from signed webhooks, however often they come', async () => {
    const { jwt, subscriptionId, sessionId, redirect } = await checkout(1234);
    expect(redirect).toBe(`https://checkout.stripe.com/c/pay/${sessionId}`);
    stripe.complete(sessionId);

    const { payload, signature } = signedEvent('checkout.session.completed', stripe.webhookObject(sessionId), { timestamp: now() });
    const first = await deliver(payload, signature);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true });
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(1734);

    // Stripe retries deliveries; the customer's return confirms too: 50 of them at once change nothing.
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        index % 2 ? deliver(payload, signature) : paymentStatus(ctx, jwt, subscriptionId, sessionId),
      ),
    );
    expect(burst.map((response) => response.statusCode)).toEqual(Array(50).fill(200));
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(1734);

    const status = (await paymentStatus(ctx, jwt, subscriptionId, sessionId)).json();
    expect(status).toMatchObject({ transaction_status: 'SUCCESSFUL', amount: 1234 });
    const [row] = (await history(ctx, jwt, subscriptionId)).content;
    expect(row).toMatchObject({ category: 'PURCHASED', transaction_status: 'SUCCESSFUL', receipt_id: status.receipt_id });
  });

  it('credits the checkout from the customer’s return alone when no webhook came', async () => {
    const { jwt, subscriptionId, sessionId } = await checkout(20);
    stripe.complete(sessionId);
    const status = (await paymentStatus(ctx, jwt, subscriptionId, sessionId)).json();
    expect(status).toMatchObject({ transaction_status: 'SUCCESSFUL', amount: 20 });
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(520);
  });

  it('refuses unsigned, tampered and too old deliveries with 400 and credits nothing', async () => {
    const { jwt, subscriptionId, sessionId } = await checkout(300);
    stripe.complete(sessionId);
    const { payload, signature } = signedEvent('checkout.session.completed', stripe.webhookObject(sessionId), { timestamp: now() });

    const unsigned = await deliver(payload);
    expect(unsigned.statusCode).toBe(400);
    expect(errorCode(unsigned)).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(errorMessage(unsigned)).toBe(MESSAGES.webhookSignatureInvalid);
    expect((await deliver(payload.replace('"amount_total":30000', '"amount_total":3000000'), signature)).statusCode).toBe(400);
    ctx.clock.advance(6 * 60_000);
    expect((await deliver(payload, signature)).statusCode).toBe(400);
    expect((await deliver('not json at all', signature)).statusCode).toBe(400);
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(500);
  });

  it('records a declined card as failed, keeps it failed when the session expires, and credits nothing', async () => {
    const { jwt, subscriptionId, sessionId } = await checkout(75);
    const purchaseId = stripe.sessions.get(sessionId)!.client_reference_id as string;
    const failed = signedEvent(
      'payment_intent.payment_failed',
      {
        id: 'pi_declined',
        object: 'payment_intent',
        amount: 7500,
        currency: 'usd',
        metadata: { purchase_id: purchaseId },
        last_payment_error: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
      },
      { timestamp: now() },
    );
    expect((await deliver(failed.payload, failed.signature)).statusCode).toBe(200);
    expect((await cancelPurchase(ctx, jwt, purchaseId)).json()).toMatchObject({
      transaction_status: 'FAILED',
      failure_message: 'Your card was declined.',
    });
    const expired = signedEvent('checkout.session.expired', stripe.webhookObject(sessionId), { timestamp: now() });
    expect((await deliver(expired.payload, expired.signature)).statusCode).toBe(200);
    expect((await paymentStatus(ctx, jwt, subscriptionId, sessionId)).json().transaction_status).toBe('FAILED');
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(500);
  });

  it('records the decline even when Stripe reports it after the session expired', async () => {
    const { jwt, subscriptionId, sessionId } = await checkout(45);
    const purchaseId = stripe.sessions.get(sessionId)!.client_reference_id as string;
    expect((await cancelPurchase(ctx, jwt, purchaseId)).json().transaction_status).toBe('CANCELLED');
    const failed = signedEvent(
      'payment_intent.payment_failed',
      {
        id: 'pi_late',
        object: 'payment_intent',
        amount: 4500,
        currency: 'usd',
        metadata: { purchase_id: purchaseId },
        last_payment_error: { message: 'Your card has insufficient funds.' },
      },
      { timestamp: now() },
    );
    expect((await deliver(failed.payload, failed.signature)).statusCode).toBe(200);
    expect((await paymentStatus(ctx, jwt, subscriptionId, sessionId)).json()).toMatchObject({
      transaction_status: 'FAILED',
      failure_message: 'Your card has insufficient funds.',
    });
  });

  it('marks a checkout Stripe expired (checkout.session.expired) as cancelled, however often it is delivered', async () => {
    const { jwt, subscriptionId, sessionId } = await checkout(70);
    stripe.sessions.get(sessionId)!.status = 'expired';
    const expired = signedEvent('checkout.session.expired', stripe.webhookObject(sessionId), { timestamp: now() });
    for (let i = 0; i < 3; i++) expect((await deliver(expired.payload, expired.signature)).statusCode).toBe(200);
    const [row] = (await history(ctx, jwt, subscriptionId)).unpaid_checkouts;
    expect(row).toMatchObject({ amount: 70, transaction_status: 'CANCELLED' });
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(500);
  });

  it('cancels at Stripe when the customer comes back through the cancel link', async () => {
    const { jwt, subscriptionId, sessionId } = await checkout(60);
    const purchaseId = stripe.sessions.get(sessionId)!.client_reference_id as string;
    expect((await cancelPurchase(ctx, jwt, purchaseId)).json().transaction_status).toBe('CANCELLED');
    expect(stripe.requests.some((request) => request.path === `/v1/checkout/sessions/${sessionId}/expire`)).toBe(true);
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(500);
  });

  it('refuses a paid amount that differs from the purchase, and ignores checkouts that are not ours', async () => {
    const { jwt, subscriptionId, sessionId } = await checkout(10);
    stripe.complete(sessionId, { amount_total: 100 });
    const mismatch = signedEvent('checkout.session.completed', stripe.webhookObject(sessionId), { timestamp: now() });
    const response = await deliver(mismatch.payload, mismatch.signature);
    expect(response.statusCode).toBe(409);
    expect(errorCode(response)).toBe('PAYMENT_MISMATCH');
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(500);

    const foreign = signedEvent(
      'checkout.session.completed',
      { ...stripe.webhookObject(sessionId), client_reference_id: '00000000-0000-4000-8000-000000000000', metadata: {} },
      { timestamp: now() },
    );
    expect((await deliver(foreign.payload, foreign.signature)).statusCode).toBe(200);
  });

  it('answers 503 with Retry-After when Stripe cannot be reached to open a checkout, and records the attempt as failed', async () => {
    const { jwt } = await signUp(ctx, `offline.${kind}.${Date.now()}@example.com`);
    const subscriptionId = await createSubscription(ctx, jwt, 'Offline');
    stripe.offline = true;
    try {
      const response = await post(ctx, '/api/credit/purchase', { amount: 10, subscription_id: subscriptionId }, jwt);
      expect(response.statusCode).toBe(503);
      expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      expect(errorMessage(response)).toBe(MESSAGES.paymentGatewayUnavailable);
    } finally {
      stripe.offline = false;
    }
    const [row] = (await history(ctx, jwt, subscriptionId)).unpaid_checkouts;
    expect(row).toMatchObject({ category: 'PURCHASED', transaction_status: 'FAILED' });
  }, 60_000);
});

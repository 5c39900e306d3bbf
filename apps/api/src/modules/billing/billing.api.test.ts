import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, get, post, send, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { HOUR, MINUTE } from '../../clock.js';
import { eq } from 'drizzle-orm';
import { purchases } from '../../db/schema.js';
import { loadConfig } from '../../config.js';
import { createPayments } from '../../adapters/payments/index.js';
import {
  TEST_CARDS,
  balanceOf,
  cancelPurchase,
  createSubscription,
  deliverSandboxEvents,
  history,
  openCheckout,
  payWith,
  paymentStatus,
  submitCard,
} from '../../../test/support/checkout.js';
import { pdfText } from '../../../test/support/pdf-text.js';

const kinds = await databaseKinds();
let counter = 0;
const freshEmail = () => `billing${++counter}.${Date.now()}@example.com`;

describe.each(kinds)('adding funds on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  async function customer(name = 'Analytics') {
    const { jwt } = await signUp(ctx, freshEmail(), 'Ada Lovelace');
    return { jwt, subscriptionId: await createSubscription(ctx, jwt, name) };
  }

  it('pays $1,234 through the sandbox checkout, credits it once, lists it first and issues a PDF receipt', async () => {
    const { jwt, subscriptionId } = await customer();
    const checkout = await openCheckout(ctx, jwt, subscriptionId, 1234, 'Q2 budget');
    expect(checkout.url.origin).toBe('http://portal.test');
    expect(checkout.path).toMatch(/^\/sandbox\/checkout\/cs_sandbox_[\w-]{32}$/);
    const [pending] = (await history(ctx, jwt, subscriptionId)).content;
    expect(pending).toMatchObject({ category: 'PURCHASED', amount: 1234, transaction_status: 'PAYMENT_INTENT_CREATED', receipt_id: null });

    const page = await ctx.app.inject({ method: 'GET', url: checkout.path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('$1,234.00');
    expect(page.body).toContain('Funds for subscription Analytics');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain('form-action');
    expect((await ctx.app.inject({ method: 'GET', url: '/sandbox/checkout.css' })).headers['content-type']).toMatch(/^text\/css/);

    const paid = await payWith(ctx, checkout.path, TEST_CARDS.success);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`http://portal.test/subscriptions?session_id=${checkout.sessionId}&id=${subscriptionId}`);

    const status = await paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId);
    expect(status.statusCode).toBe(200);
    const confirmed = status.json();
    expect(confirmed).toMatchObject({
      subscription_id: subscriptionId,
      amount: 1234,
      transaction_status: 'SUCCESSFUL',
      failure_message: null,
    });
    expect(confirmed.receipt_id).toMatch(/^KC-\d{8}$/);

    // The webhook-style notification arrives after the return, and the return is repeated: nothing more is credited.
    expect(await deliverSandboxEvents(ctx)).toBe(1);
    await paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId);
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(1734);

    const [top] = (await history(ctx, jwt, subscriptionId)).content;
    expect(top).toEqual({
      transaction_id: confirmed.transaction_id,
      receipt_id: confirmed.receipt_id,
      transaction_date: expect.any(String),
      category: 'PURCHASED',
      type: 'CREDIT',
      description: 'Funds added by card',
      remark: 'Q2 budget',
      amount: 1234,
      transaction_status: 'SUCCESSFUL',
    });

    const receipt = await ctx.app.inject({
      method: 'GET',
      url: `/api/credit/subscription/${confirmed.transaction_id}`,
      headers: { authorization: `Bearer ${jwt}`, usertimezone: 'America/New_York' },
    });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.headers['content-type']).toBe('application/pdf');
    expect(receipt.headers['content-disposition']).toBe(`attachment; filename="${confirmed.transaction_id}.pdf"`);
    expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(receipt.rawPayload);
    for (const expected of [
      confirmed.receipt_id,
      confirmed.transaction_id,
      '$1,234.00',
      'Kumo Cloud, Inc.',
      'Ada Lovelace',
      'Subscription: Analytics',
      'Visa •••• 4242',
      '$1,734.00',
      'Mar 10, 2026 5:00 AM EDT',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('credits nothing for a declined card and says why', async () => {
    const { jwt, subscriptionId } = await customer();
    const checkout = await openCheckout(ctx, jwt, subscriptionId, 250);
    const declined = await payWith(ctx, checkout.path, TEST_CARDS.declined);
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain(MESSAGES.cardDeclined);

    await deliverSandboxEvents(ctx);
    const status = (await paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId)).json();
    expect(status).toMatchObject({ transaction_status: 'FAILED', failure_message: MESSAGES.cardDeclined, receipt_id: null });

    // Leaving through Cancel afterwards keeps the reason.
    const back = await submitCard(ctx, checkout.path, { action: 'cancel' });
    expect(back.statusCode).toBe(303);
    expect(back.headers.location).toBe(`http://portal.test/subscriptions?id=${subscriptionId}&cancelled_purchase=${status.transaction_id}`);
    const cancelled = (await cancelPurchase(ctx, jwt, status.transaction_id)).json();
    expect(cancelled).toMatchObject({ transaction_status: 'FAILED', failure_message: MESSAGES.cardDeclined });
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(500);

    const [row] = (await history(ctx, jwt, subscriptionId)).content;
    expect(row).toMatchObject({ transaction_status: 'FAILED', amount: 250, receipt_id: null });
    const receipt = await get(ctx, `/api/credit/subscription/${status.transaction_id}`, jwt);
    expect(receipt.statusCode).toBe(422);
    expect(errorMessage(receipt)).toBe(MESSAGES.receiptNotAvailable);
  });

  it('keeps the decline reason when the customer cancels before the decline notification is handled', async () => {
    const { jwt, subscriptionId } = await customer();
    const checkout = await openCheckout(ctx, jwt, subscriptionId, 30);
    await payWith(ctx, checkout.path, TEST_CARDS.declined);
    const back = await submitCard(ctx, checkout.path, { action: 'cancel' });
    const purchaseId = new URL(String(back.headers.location)).searchParams.get('cancelled_purchase')!;
    expect((await cancelPurchase(ctx, jwt, purchaseId)).json()).toMatchObject({
      transaction_status: 'FAILED',
      failure_message: MESSAGES.cardDeclined,
    });
    await deliverSandboxEvents(ctx);
    expect((await paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId)).json().transaction_status).toBe('FAILED');
  });

  it('lets the customer try another card after a decline', async () => {
    const { jwt, subscriptionId } = await customer();
    const checkout = await openCheckout(ctx, jwt, subscriptionId, '19.99');
    await payWith(ctx, checkout.path, TEST_CARDS.declined);
    expect((await payWith(ctx, checkout.path, TEST_CARDS.success)).statusCode).toBe(303);
    expect((await paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId)).json().transaction_status).toBe('SUCCESSFUL');
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(519.99);
  });

  it('cancels a checkout the customer leaves, crediting nothing', async () => {
    const { jwt, subscriptionId } = await customer();
    const checkout = await openCheckout(ctx, jwt, subscriptionId, 75);
    const back = await submitCard(ctx, checkout.path, { action: 'cancel' });
    const purchaseId = new URL(String(back.headers.location)).searchParams.get('cancelled_purchase')!;
    const cancelled = await cancelPurchase(ctx, jwt, purchaseId);
    expect(cancelled.json()).toMatchObject({ transaction_status: 'CANCELLED', amount: 75, failure_message: null });
    expect((await paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId)).json().transaction_status).toBe('CANCELLED');
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(500);

    const closed = await ctx.app.inject({ method: 'GET', url: checkout.path });
    expect(closed.body).toContain('Checkout closed');
    // A closed checkout cannot be paid any more.
    const late = await payWith(ctx, checkout.path, TEST_CARDS.success);
    expect(late.statusCode).toBe(303);
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(500);
  });

  it('closes checkouts abandoned for 24 hours (the scheduled job) and leaves younger ones pending', async () => {
    const statusOf = async (id: string) =>
      (await ctx.database.db.select({ status: purchases.status }).from(purchases).where(eq(purchases.id, id)))[0]?.status;
    const first = await customer();
    const old = await openCheckout(ctx, first.jwt, first.subscriptionId, 40);
    const oldId = String((await history(ctx, first.jwt, first.subscriptionId)).content[0]!.transaction_id);
    ctx.clock.advance(23 * HOUR);
    try {
      const second = await customer();
      await openCheckout(ctx, second.jwt, second.subscriptionId, 41);
      const youngId = String((await history(ctx, second.jwt, second.subscriptionId)).content[0]!.transaction_id);
      ctx.clock.advance(HOUR + MINUTE);
      expect(await ctx.services.billing.expireAbandonedCheckouts()).toBeGreaterThanOrEqual(1);
      expect(await statusOf(oldId)).toBe('CANCELLED');
      expect(await statusOf(youngId)).toBe('PAYMENT_INTENT_CREATED');
      // Its hosted page is closed too, and cannot be paid any more.
      expect((await payWith(ctx, old.path, TEST_CARDS.success)).statusCode).toBe(303);
      await ctx.services.billing.expireAbandonedCheckouts();
      expect(await statusOf(youngId)).toBe('PAYMENT_INTENT_CREATED');
    } finally {
      ctx.clock.advance(-(24 * HOUR + MINUTE));
    }
    expect((await history(ctx, first.jwt, first.subscriptionId)).content[0]).toMatchObject({ amount: 40, transaction_status: 'CANCELLED' });
    expect(await balanceOf(ctx, first.jwt, first.subscriptionId)).toBe(500);
  });

  it('takes the checkout lifetime from CHECKOUT_EXPIRY_HOURS', () => {
    expect(loadConfig({}).CHECKOUT_EXPIRY_HOURS).toBe(24);
    expect(
      createPayments({ checkoutExpiryHours: 2 }, { db: ctx.database.db, clock: ctx.clock, jobs: ctx.jobs, publicUrl: 'http://x' })
        .checkoutLifetimeMs,
    ).toBe(2 * HOUR);
    expect(() => loadConfig({ CHECKOUT_EXPIRY_HOURS: '25' })).toThrow(/CHECKOUT_EXPIRY_HOURS/);
  });

  it('lets the customer cancel a pending checkout from its row, and only a pending one of its own account', async () => {
    const { jwt, subscriptionId } = await customer();
    await openCheckout(ctx, jwt, subscriptionId, 55);
    const [row] = (await history(ctx, jwt, subscriptionId)).content;
    const cancel = (id: string, token = jwt) => send(ctx, 'POST', `/api/credit/cancel/${id}`, undefined, token);

    const stranger = await customer('Other');
    expect((await cancel(String(row!.transaction_id), stranger.jwt)).statusCode).toBe(404);

    const cancelled = await cancel(String(row!.transaction_id));
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ transaction_status: 'CANCELLED', amount: 55 });
    expect((await cancel(String(row!.transaction_id))).json().transaction_status).toBe('CANCELLED');
    expect((await history(ctx, jwt, subscriptionId)).content[0]).toMatchObject({ transaction_status: 'CANCELLED' });

    const paid = await openCheckout(ctx, jwt, subscriptionId, 66);
    await payWith(ctx, paid.path, TEST_CARDS.success);
    await paymentStatus(ctx, jwt, subscriptionId, paid.sessionId);
    const [paidRow] = (await history(ctx, jwt, subscriptionId)).content;
    const refused = await cancel(String(paidRow!.transaction_id));
    expect(refused.statusCode).toBe(409);
    expect(errorCode(refused)).toBe('CHECKOUT_NOT_PENDING');
    expect(errorMessage(refused)).toBe(MESSAGES.checkoutNotPending);
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(566);
  });

  it('keeps a checkout open while the card form is incomplete', async () => {
    const { jwt, subscriptionId } = await customer();
    const checkout = await openCheckout(ctx, jwt, subscriptionId, 10);
    const invalid = await submitCard(ctx, checkout.path, { action: 'pay', cardNumber: '4242 4242 4242 4241', expiry: '01 / 20', cvc: '1' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.body).toContain('Your card number is invalid.');
    expect(invalid.body).toContain('expiration year is in the past');
    expect(invalid.body).toContain('security code is incomplete');
    expect((await paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId)).json().transaction_status).toBe('PAYMENT_INTENT_CREATED');
  });

  it('shows an unknown checkout as not found', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/sandbox/checkout/cs_sandbox_nope' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('Checkout not found');
    expect((await submitCard(ctx, '/sandbox/checkout/cs_sandbox_nope', { action: 'cancel' })).statusCode).toBe(404);
  });

  describe('the purchase request', () => {
    let jwt: string;
    let subscriptionId: string;
    beforeAll(async () => {
      ({ jwt, subscriptionId } = await customer('Rules'));
    });
    const buy = (body: Record<string, unknown>) => post(ctx, '/api/credit/purchase', { subscription_id: subscriptionId, ...body }, jwt);

    it.each([
      [0, MESSAGES.addFundsMinimum],
      [0.99, MESSAGES.addFundsMinimum],
      ['abc', MESSAGES.addFundsMinimum],
      ['', MESSAGES.addFundsMinimum],
      [-5, MESSAGES.addFundsMinimum],
      ['1e3', MESSAGES.addFundsMinimum],
      [1_000_000, MESSAGES.addFundsMaximum],
      [999_999.01, MESSAGES.addFundsMaximum],
      [12.345, MESSAGES.amountDecimals],
      [0.1 + 0.2, MESSAGES.amountDecimals],
      [null, MESSAGES.addFundsMinimum],
    ])('refuses the amount %j with its message', async (amount, message) => {
      const response = await buy({ amount });
      expect(response.statusCode).toBe(400);
      expect(response.json().field_errors).toEqual({ amount: message });
    });

    it('accepts 1 and 999,999, as numbers or text with two decimals', async () => {
      for (const amount of [1, '999999', 999_999, '10.50', 12.3]) {
        expect((await buy({ amount })).statusCode, String(amount)).toBe(200);
      }
    });

    it('takes only US dollars and card purchases', async () => {
      const euro = await buy({ amount: 10, iso_currency_code: 'EUR' });
      expect(euro.json().field_errors).toEqual({ iso_currency_code: MESSAGES.currencyUnsupported });
      expect((await buy({ amount: 10, category: 'REFUND_MAINTENANCE_COST' })).statusCode).toBe(400);
      expect((await buy({ amount: 10, remark: 'x'.repeat(201) })).json().field_errors).toEqual({ remark: MESSAGES.remarkTooLong });
      expect((await post(ctx, '/api/credit/purchase', { amount: 10 }, jwt)).statusCode).toBe(400);
    });

    it('answers an unknown checkout session with 404', async () => {
      const response = await paymentStatus(ctx, jwt, subscriptionId, 'cs_sandbox_unknown');
      expect(response.statusCode).toBe(404);
      expect(errorMessage(response)).toBe(MESSAGES.transactionNotFound);
      expect((await get(ctx, `/api/credit/payment-status/${subscriptionId}`, jwt)).statusCode).toBe(400);
    });
  });

  it("keeps one account's checkouts and receipts from another", async () => {
    const owner = await customer();
    const stranger = await customer();
    const checkout = await openCheckout(ctx, owner.jwt, owner.subscriptionId, 40);
    await payWith(ctx, checkout.path, TEST_CARDS.success);
    const { transaction_id: transactionId } = (await paymentStatus(ctx, owner.jwt, owner.subscriptionId, checkout.sessionId)).json();

    expect((await paymentStatus(ctx, stranger.jwt, owner.subscriptionId, checkout.sessionId)).statusCode).toBe(404);
    expect((await paymentStatus(ctx, stranger.jwt, stranger.subscriptionId, checkout.sessionId)).statusCode).toBe(404);
    expect((await cancelPurchase(ctx, stranger.jwt, transactionId)).statusCode).toBe(404);
    expect((await get(ctx, `/api/credit/subscription/${transactionId}`, stranger.jwt)).statusCode).toBe(404);
    // The right account but the wrong subscription is not a match either.
    expect((await paymentStatus(ctx, owner.jwt, stranger.subscriptionId, checkout.sessionId)).statusCode).toBe(404);
  });

  it('refuses receipts for funds added by staff and for free credits', async () => {
    const { jwt, subscriptionId } = await customer();
    await ctx.services.ledger.addAdminFunds({
      subscriptionId,
      amountCents: 10_000,
      category: 'REFUND_MAINTENANCE_COST',
      idempotencyKey: `admin:${subscriptionId}`,
      remark: 'Maintenance',
    });
    const [admin, grant] = (await history(ctx, jwt, subscriptionId)).content;
    expect(admin).toMatchObject({
      category: 'REFUND_MAINTENANCE_COST',
      amount: 100,
      transaction_status: 'SUCCESSFUL',
      remark: 'Maintenance',
    });
    const adminReceipt = await get(ctx, `/api/credit/subscription/${String(admin!.transaction_id)}`, jwt);
    expect(adminReceipt.statusCode).toBe(422);
    expect(errorCode(adminReceipt)).toBe('RECEIPT_NOT_AVAILABLE');
    expect(errorMessage(adminReceipt)).toBe(MESSAGES.adminReceiptNotDownloadable);
    const grantReceipt = await get(ctx, `/api/credit/subscription/${String(grant!.transaction_id)}`, jwt);
    expect(errorMessage(grantReceipt)).toBe(MESSAGES.receiptNotAvailable);
    expect((await get(ctx, '/api/credit/subscription/00000000-0000-4000-8000-000000000000', jwt)).statusCode).toBe(404);
    expect((await get(ctx, '/api/credit/subscription/nope', jwt)).statusCode).toBe(400);
  });

  it('describes the money endpoints in the OpenAPI document, and has no Stripe webhook while the sandbox is in use', async () => {
    const document = (await get(ctx, '/api/openapi.json')).json();
    const expected: [string, string][] = [
      ['/api/subscription/list', 'get'],
      ['/api/subscription/details', 'get'],
      ['/api/subscription/create', 'post'],
      ['/api/subscription/delete/{id}', 'delete'],
      ['/api/credit/purchase', 'post'],
      ['/api/credit/payment-status/{id}', 'get'],
      ['/api/credit/purchase/{id}/cancel', 'post'],
      ['/api/credit/view/credit-transactions/{id}', 'get'],
    ];
    for (const [path, method] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.responses['200'].content['application/json'].schema, `${path} response`).toBeDefined();
    }
    expect(document.paths['/api/credit/subscription/{id}']?.get).toBeDefined();
    expect(document.paths['/api/credit/purchase'].post.requestBody.content['application/json'].schema).toBeDefined();
    expect(document.paths['/sandbox/checkout/{sessionId}']).toBeUndefined();
    const webhook = await ctx.app.inject({
      method: 'POST',
      url: '/api/credit/webhook/stripe',
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(webhook.statusCode).toBe(404);
  });

  it('answers malformed requests with the error shape and a 4xx', async () => {
    const { jwt, subscriptionId } = await customer();
    const auth = { authorization: `Bearer ${jwt}` };
    const responses = [
      await post(ctx, '/api/credit/purchase', '{"amount": ', jwt),
      await get(ctx, `/api/credit/view/credit-transactions/${subscriptionId}?page=-1`, jwt),
      await get(ctx, `/api/credit/view/credit-transactions/${subscriptionId}?page=abc&size=20`, jwt),
      await get(ctx, `/api/credit/payment-status/${subscriptionId}?session_id=`, jwt),
      await ctx.app.inject({
        method: 'POST',
        url: '/sandbox/checkout/cs_sandbox_x',
        payload: 'action=steal',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      await ctx.app.inject({
        method: 'POST',
        url: '/sandbox/checkout/cs_sandbox_x',
        payload: 'x',
        headers: { 'content-type': 'text/plain' },
      }),
      await ctx.app.inject({
        method: 'POST',
        url: '/api/credit/purchase',
        payload: 'amount=1',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ];
    for (const response of responses) {
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, response.body).toBeLessThan(500);
      expect(response.json()).toMatchObject({ errorDetails: { error_code: expect.any(String), error_message: expect.any(String) } });
    }
  });

  it('pages the history 20 at a time, newest first', async () => {
    const { jwt, subscriptionId } = await customer();
    for (let i = 1; i <= 44; i++) {
      await ctx.services.ledger.debitUsage({ subscriptionId, amountCents: i, idempotencyKey: `usage:${subscriptionId}:${i}` });
      ctx.clock.advance(1000);
    }
    const first = await history(ctx, jwt, subscriptionId, 0);
    const third = await history(ctx, jwt, subscriptionId, 2);
    expect(first.totalPages).toBe(3);
    expect(first.content).toHaveLength(20);
    expect(first.content[0]).toMatchObject({ category: 'USAGE', amount: -0.44, type: 'DEBIT' });
    expect(third.content).toHaveLength(5);
    expect(third.content.at(-1)).toMatchObject({ category: 'FREE_CREDITS', amount: 500 });
    const size = await get(ctx, `/api/credit/view/credit-transactions/${subscriptionId}?page=0&size=500`, jwt);
    expect(size.statusCode).toBe(400);
  });
});

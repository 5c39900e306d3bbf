import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, get, post, startTestApp, type TestContext } from '../../../test/support/harness.js';
import {
  TEST_CARDS,
  cancelPurchase,
  customerWithSubscription,
  history,
  openCheckout,
  payWith,
  paymentStatus,
  submitCard,
} from '../../../test/support/checkout.js';

const kinds = await databaseKinds();

describe.each(kinds)('receipts, history and malformed money requests on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  const customer = (name?: string) => customerWithSubscription(ctx, 'billing', name);

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

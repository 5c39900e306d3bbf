import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, get, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { HOUR, MINUTE } from '../../clock.js';
import { eq } from 'drizzle-orm';
import { purchases } from '../../db/schema.js';
import { loadConfig } from '../../config.js';
import { createPayments } from '../../adapters/payments/index.js';
import {
  TEST_CARDS,
  balanceOf,
  cancelPurchase,
  customerWithSubscription,
  deliverSandboxEvents,
  history,
  openCheckout,
  payWith,
  paymentStatus,
  submitCard,
} from '../../../test/support/checkout.js';
import { pdfText } from '../../../test/support/pdf-text.js';

const kinds = await databaseKinds();

describe.each(kinds)('adding funds on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  const customer = (name?: string) => customerWithSubscription(ctx, 'billing', name);

  it('pays $1,234 through the sandbox checkout, credits it once, lists it first and issues a PDF receipt', async () => {
    const { jwt, subscriptionId } = await customer();
    const checkout = await openCheckout(ctx, jwt, subscriptionId, 1234, 'Q2 budget');
    expect(checkout.url.origin).toBe('http://portal.test');
    expect(checkout.path).toMatch(/^\/sandbox\/checkout\/cs_sandbox_[\w-]{32}$/);
    // Not paid yet: listed apart from the entries, without a balance.
    const opened = await history(ctx, jwt, subscriptionId);
    expect(opened.content.map((t) => t.category)).toEqual(['FREE_CREDITS']);
    const [pending] = opened.unpaid_checkouts;
    expect(pending).toMatchObject({
      category: 'PURCHASED',
      amount: 1234,
      transaction_status: 'PAYMENT_INTENT_CREATED',
      receipt_id: null,
      balance_after: null,
    });

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
      balance_after: 1734,
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

    const [row] = (await history(ctx, jwt, subscriptionId)).unpaid_checkouts;
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
    const oldId = String((await history(ctx, first.jwt, first.subscriptionId)).unpaid_checkouts[0]!.transaction_id);
    ctx.clock.advance(23 * HOUR);
    try {
      const second = await customer();
      await openCheckout(ctx, second.jwt, second.subscriptionId, 41);
      const youngId = String((await history(ctx, second.jwt, second.subscriptionId)).unpaid_checkouts[0]!.transaction_id);
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
    expect((await history(ctx, first.jwt, first.subscriptionId)).unpaid_checkouts[0]).toMatchObject({
      amount: 40,
      transaction_status: 'CANCELLED',
    });
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
    const [row] = (await history(ctx, jwt, subscriptionId)).unpaid_checkouts;
    const cancel = (id: string, token = jwt) => send(ctx, 'POST', `/api/credit/cancel/${id}`, undefined, token);

    const stranger = await customer('Other');
    expect((await cancel(String(row!.transaction_id), stranger.jwt)).statusCode).toBe(404);

    const cancelled = await cancel(String(row!.transaction_id));
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ transaction_status: 'CANCELLED', amount: 55 });
    expect((await cancel(String(row!.transaction_id))).json().transaction_status).toBe('CANCELLED');
    expect((await history(ctx, jwt, subscriptionId)).unpaid_checkouts[0]).toMatchObject({ transaction_status: 'CANCELLED' });

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
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { TEST_CARDS, customerWithSubscription, history, openCheckout, payWith, paymentStatus } from '../../../test/support/checkout.js';

const kinds = await databaseKinds();

describe.each(kinds)('the transaction history on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  /** Sign-up credits $500, a paid top-up of $12.34, usage of $0.07, staff funds of $1.01, and an abandoned checkout of $99. */
  async function customerWithHistory() {
    const { jwt, subscriptionId } = await customerWithSubscription(ctx, 'history');
    const paid = await openCheckout(ctx, jwt, subscriptionId, '12.34');
    await payWith(ctx, paid.path, TEST_CARDS.success);
    const confirmed = (await paymentStatus(ctx, jwt, subscriptionId, paid.sessionId)).json();
    ctx.clock.advance(1000);
    await ctx.services.ledger.debitUsage({ subscriptionId, amountCents: 7, idempotencyKey: `usage:${subscriptionId}` });
    ctx.clock.advance(1000);
    await ctx.services.ledger.addAdminFunds({
      subscriptionId,
      amountCents: 101,
      idempotencyKey: `staff:${subscriptionId}`,
      category: 'SERVICE_CREDIT',
    });
    ctx.clock.advance(1000);
    await openCheckout(ctx, jwt, subscriptionId, 99);
    return { jwt, subscriptionId, purchaseId: String(confirmed.transaction_id) };
  }

  it("gives every entry the ledger's balance after it, to the cent, and keeps an unpaid checkout apart", async () => {
    const { jwt, subscriptionId, purchaseId } = await customerWithHistory();
    const page = await history(ctx, jwt, subscriptionId);
    expect(page.content.map((t) => [t.category, t.amount, t.balance_after, t.transaction_status])).toEqual([
      ['SERVICE_CREDIT', 1.01, 513.28, 'SUCCESSFUL'],
      ['USAGE', -0.07, 512.27, 'SUCCESSFUL'],
      ['PURCHASED', 12.34, 512.34, 'SUCCESSFUL'],
      ['FREE_CREDITS', 500, 500, 'SUCCESSFUL'],
    ]);
    // The paid top-up is named by its purchase, whose receipt is asked for by that id.
    expect(page.content[2]).toMatchObject({
      transaction_id: purchaseId,
      description: 'Funds added by card',
      receipt_id: expect.stringMatching(/^KC-/),
    });
    // The abandoned checkout moved no money: listed apart, without a balance.
    expect(page.unpaid_checkouts).toEqual([
      expect.objectContaining({ category: 'PURCHASED', amount: 99, balance_after: null, transaction_status: 'PAYMENT_INTENT_CREATED' }),
    ]);
    expect(page.totalPages).toBe(1);
  });

  it('filters by kind on the server, the balances still those after each entry', async () => {
    const { jwt, subscriptionId } = await customerWithHistory();
    const of = (kind: string) => history(ctx, jwt, subscriptionId, 0, { kind });
    const topUps = await of('TOP_UPS');
    expect(topUps.content.map((t) => [t.category, t.balance_after])).toEqual([['PURCHASED', 512.34]]);
    expect(topUps.unpaid_checkouts).toHaveLength(1);
    const usage = await of('USAGE');
    expect(usage.content.map((t) => [t.category, t.amount, t.balance_after])).toEqual([['USAGE', -0.07, 512.27]]);
    expect(usage.unpaid_checkouts).toEqual([]);
    expect((await of('FREE_CREDITS')).content.map((t) => t.category)).toEqual(['FREE_CREDITS']);
    expect((await of('STAFF_CREDITS')).content.map((t) => t.category)).toEqual(['SERVICE_CREDIT']);
    const transfers = await of('TRANSFERS');
    expect(transfers).toEqual({ content: [], totalPages: 0, unpaid_checkouts: [] });
  });

  it("refuses an unknown kind with the contract's message", async () => {
    const { jwt, subscriptionId } = await customerWithSubscription(ctx, 'history');
    const refused = await get(ctx, `/api/credit/view/credit-transactions/${subscriptionId}?kind=PENDING`, jwt);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().field_errors).toEqual({ kind: MESSAGES.transactionKindInvalid });
  });
});

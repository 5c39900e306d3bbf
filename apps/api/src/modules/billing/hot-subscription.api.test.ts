import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { TEST_CARDS, balanceOf, customerWithSubscription, openCheckout, payWith, paymentStatus } from '../../../test/support/checkout.js';
import { expectTopUpsCreditedOnce } from '../../../test/support/top-ups-credited.js';

const kinds = await databaseKinds();
const TOP_UPS = 100;

/** Exact dollars-and-cents amounts, all different: $1.01, $2.02, … */
const amountOf = (index: number) => `${index + 1}.${String((index + 1) % 100).padStart(2, '0')}`;
const centsOf = (amount: string) => Math.round(Number(amount) * 100);

describe.each(kinds)(`${TOP_UPS} top-ups of one subscription confirmed at once on %s`, (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  it('answers every confirmation, credits each top-up once and keeps the balance equal to the ledger', async () => {
    const { jwt, subscriptionId } = await customerWithSubscription(ctx, 'hot');
    const before = await balanceOf(ctx, jwt, subscriptionId);
    const checkouts = [];
    for (let index = 0; index < TOP_UPS; index++) {
      const amount = amountOf(index);
      const checkout = await openCheckout(ctx, jwt, subscriptionId, amount);
      expect((await payWith(ctx, checkout.path, TEST_CARDS.success)).statusCode).toBe(303);
      checkouts.push({ ...checkout, cents: centsOf(amount) });
    }

    // Every top-up confirmed twice at the same moment: by the browser coming back and by the provider's notification.
    const [returns, notifications] = await Promise.all([
      Promise.all(checkouts.map(({ sessionId }) => paymentStatus(ctx, jwt, subscriptionId, sessionId))),
      Promise.allSettled(checkouts.map(({ sessionId }) => ctx.services.billing.syncCheckout(sessionId))),
    ]);
    expect(returns.map((response) => [response.statusCode, response.json().transaction_status])).toEqual(
      checkouts.map(() => [200, 'SUCCESSFUL']),
    );
    expect(notifications.filter((outcome) => outcome.status === 'rejected')).toEqual([]);

    const { entries } = await expectTopUpsCreditedOnce(ctx, { jwt, subscriptionId, before, checkouts });
    // Money only came in, so the running balances rise: each entry starts where the one before it ended.
    const ordered = [...entries].sort((a, b) => a.balanceAfterCents - b.balanceAfterCents);
    expect(ordered.map((entry) => entry.balanceAfterCents - entry.amountCents)).toEqual([
      0,
      ...ordered.slice(0, -1).map((entry) => entry.balanceAfterCents),
    ]);
  });
});

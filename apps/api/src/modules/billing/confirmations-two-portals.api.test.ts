import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purchases } from '../../db/schema.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { TEST_CARDS, balanceOf, customerWithSubscription, openCheckout, payWith, paymentStatus } from '../../../test/support/checkout.js';
import { expectTopUpsCreditedOnce } from '../../../test/support/top-ups-credited.js';

const kinds = await databaseKinds();
const TOP_UPS = 40;

describe.each(kinds)(`${TOP_UPS} top-ups of one subscription confirmed at once by two portals on %s`, (kind) => {
  let first: TestContext;
  let second: TestContext;
  beforeAll(async () => {
    first = await startTestApp(kind);
    second = await startTestApp(kind, { sameDatabaseAs: first });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('credits each top-up once and answers each return with the purchase as it was committed', async () => {
    const { jwt, subscriptionId } = await customerWithSubscription(first, 'two-portals');
    const before = await balanceOf(first, jwt, subscriptionId);
    const checkouts = [];
    for (let index = 0; index < TOP_UPS; index++) {
      const checkout = await openCheckout(first, jwt, subscriptionId, index + 1);
      expect((await payWith(first, checkout.path, TEST_CARDS.success)).statusCode).toBe(303);
      checkouts.push({ ...checkout, cents: (index + 1) * 100 });
    }

    // Each portal groups only its own confirmations: the two groups meet on the subscription's row lock and the keys.
    const portals = [first, second];
    const [returns, notifications] = await Promise.all([
      Promise.all(checkouts.map(({ sessionId }, index) => paymentStatus(portals[index % 2]!, jwt, subscriptionId, sessionId))),
      Promise.allSettled(checkouts.map(({ sessionId }, index) => portals[(index + 1) % 2]!.services.billing.syncCheckout(sessionId))),
    ]);
    expect(notifications.filter((outcome) => outcome.status === 'rejected')).toEqual([]);

    const rows = await first.database.db.select().from(purchases).where(eq(purchases.subscriptionId, subscriptionId));
    const stored = new Map(rows.map((row) => [row.checkoutSessionId, row]));
    // Every answer is the stored purchase: paid, with the receipt it keeps, whichever portal's group wrote it.
    expect(returns.map((response) => [response.statusCode, response.json()])).toEqual(
      checkouts.map(({ sessionId }) => {
        const row = stored.get(sessionId)!;
        return [
          200,
          {
            subscription_id: subscriptionId,
            transaction_id: row.id,
            amount: row.amountCents / 100,
            transaction_status: 'SUCCESSFUL',
            receipt_id: row.receiptId,
            failure_message: null,
          },
        ];
      }),
    );

    await expectTopUpsCreditedOnce(first, { jwt, subscriptionId, before, checkouts }, second);
  });
});

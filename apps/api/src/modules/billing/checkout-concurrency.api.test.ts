import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, purchases } from '../../db/schema.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { TEST_CARDS, balanceOf, createSubscription, openCheckout, payWith, paymentStatus } from '../../../test/support/checkout.js';
import { purchaseKey } from './billing.service.js';

const kinds = await databaseKinds();

describe.each(kinds)('one checkout confirmed 50 times at once on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  it('is credited exactly once, whether the return or the webhook gets there first', async () => {
    const { jwt } = await signUp(ctx, `burst.${kind}.${Date.now()}@example.com`);
    const subscriptionId = await createSubscription(ctx, jwt, 'Burst');
    const checkout = await openCheckout(ctx, jwt, subscriptionId, 1234);
    expect((await payWith(ctx, checkout.path, TEST_CARDS.success)).statusCode).toBe(303);

    // Even indexes are the browser coming back, odd ones the provider's notification, all in flight together.
    const confirmations = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        index % 2 === 0
          ? paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId)
          : ctx.services.billing.syncCheckout(checkout.sessionId),
      ),
    );
    expect(confirmations.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    for (const outcome of confirmations) {
      if (outcome.status === 'fulfilled' && outcome.value) {
        expect(outcome.value.statusCode).toBe(200);
        expect(outcome.value.json().transaction_status).toBe('SUCCESSFUL');
      }
    }

    const credited = await ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.subscriptionId, subscriptionId), eq(ledgerEntries.kind, 'PURCHASE')));
    expect(credited).toHaveLength(1);
    expect(credited[0]).toMatchObject({ amountCents: 123_400, idempotencyKey: purchaseKey(checkout.sessionId) });
    const [purchase] = await ctx.database.db.select().from(purchases).where(eq(purchases.checkoutSessionId, checkout.sessionId));
    expect(purchase).toMatchObject({ status: 'SUCCESSFUL', ledgerEntryId: credited[0]!.id });
    expect(await balanceOf(ctx, jwt, subscriptionId)).toBe(1734);
  });
});

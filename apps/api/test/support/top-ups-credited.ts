import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { ledgerEntries, purchases, subscriptions } from '../../src/db/schema.js';
import { purchaseKey } from '../../src/modules/billing/billing.service.js';
import { balanceOf } from './checkout.js';
import type { TestContext } from './harness.js';

/**
 * After top-ups of one subscription were confirmed at once (returns and notifications racing): each checkout was
 * credited exactly once, under its key and amount; each purchase is paid, with a receipt of its own and its ledger
 * entry; the balance grew by their sum (read through `reader`) and equals the subscription's ledger. Returns the
 * subscription's ledger entries and its purchases.
 */
export async function expectTopUpsCreditedOnce(
  ctx: TestContext,
  top: { jwt: string; subscriptionId: string; before: number; checkouts: { sessionId: string; cents: number }[] },
  reader: TestContext = ctx,
) {
  const { jwt, subscriptionId, before, checkouts } = top;
  const { db } = ctx.database;
  const credited = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.subscriptionId, subscriptionId), eq(ledgerEntries.kind, 'PURCHASE')));
  expect(credited.map(({ idempotencyKey, amountCents }) => [idempotencyKey, amountCents]).sort()).toEqual(
    checkouts.map(({ sessionId, cents }) => [purchaseKey(sessionId), cents]).sort(),
  );
  const rows = await db.select().from(purchases).where(eq(purchases.subscriptionId, subscriptionId));
  expect(
    rows.every((row) => row.status === 'SUCCESSFUL' && row.receiptId && credited.some((entry) => entry.id === row.ledgerEntryId)),
  ).toBe(true);
  expect(new Set(rows.map((row) => row.receiptId)).size).toBe(checkouts.length);

  const total = checkouts.reduce((sum, { cents }) => sum + cents, 0);
  expect(Math.round((await balanceOf(reader, jwt, subscriptionId)) * 100)).toBe(Math.round(before * 100) + total);
  const entries = await db.select().from(ledgerEntries).where(eq(ledgerEntries.subscriptionId, subscriptionId));
  const [stored] = await db
    .select({ balanceCents: subscriptions.balanceCents })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  expect(stored!.balanceCents).toBe(entries.reduce((sum, entry) => sum + entry.amountCents, 0));
  return { entries, rows };
}

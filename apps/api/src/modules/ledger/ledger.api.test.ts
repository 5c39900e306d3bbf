import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { DAY, HOUR } from '../../clock.js';
import { creditAllocations, creditGrants, ledgerEntries, subscriptions } from '../../db/schema.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription, type Customer } from '../../../test/support/money.js';
import type { AppError } from '../../errors.js';

const kinds = await databaseKinds();
let keys = 0;
const key = (label: string) => `${label}:${++keys}:${Date.now()}`;

describe.each(kinds)('ledger on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  const ledger = () => ctx.services.ledger;
  const balanceOf = async (subscriptionId: string) => {
    const [row] = await ctx.database.db
      .select({ balance: subscriptions.balanceCents })
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    return row!.balance;
  };
  const entriesOf = (subscriptionId: string) =>
    ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.subscriptionId, subscriptionId)).orderBy(asc(ledgerEntries.seq));
  const sumOf = async (subscriptionId: string) => (await entriesOf(subscriptionId)).reduce((sum, entry) => sum + entry.amountCents, 0);
  const refusal = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      return error as AppError;
    }
    throw new Error('expected a refusal');
  };

  /** A customer whose first subscription already took the sign-up credits, and a second, empty one. */
  async function emptySubscription(): Promise<{ customer: Customer; subscriptionId: string }> {
    const customer = await newCustomer(ctx);
    await newSubscription(ctx, customer);
    return { customer, subscriptionId: await newSubscription(ctx, customer) };
  }

  it('gives the first subscription $500 of free credits that expire in 30 days, and no other', async () => {
    const customer = await newCustomer(ctx);
    const first = await newSubscription(ctx, customer);
    const second = await newSubscription(ctx, customer);
    expect(await balanceOf(first)).toBe(50_000);
    expect(await balanceOf(second)).toBe(0);
    const [grant] = await ctx.database.db.select().from(creditGrants).where(eq(creditGrants.subscriptionId, first));
    expect(grant).toMatchObject({ amountCents: 50_000, remainingCents: 50_000 });
    expect(grant!.expiresAt.getTime() - ctx.clock.now().getTime()).toBe(30 * DAY);
  });

  it('posts a purchase once per idempotency key and keeps the balance equal to the sum of entries', async () => {
    const { subscriptionId } = await emptySubscription();
    const idempotencyKey = key('checkout');
    const first = await ledger().postPurchase({ subscriptionId, amountCents: 123_456, idempotencyKey });
    const again = await ledger().postPurchase({ subscriptionId, amountCents: 123_456, idempotencyKey });
    expect(first.duplicate).toBe(false);
    expect(again).toEqual({ entry: first.entry, duplicate: true });
    expect(first.entry).toMatchObject({ kind: 'PURCHASE', category: 'PURCHASED', amountCents: 123_456, balanceAfterCents: 123_456 });
    expect(await balanceOf(subscriptionId)).toBe(123_456);
    expect(await sumOf(subscriptionId)).toBe(123_456);
  });

  it('refuses an idempotency key already used for another operation or subscription', async () => {
    const { subscriptionId } = await emptySubscription();
    const other = (await emptySubscription()).subscriptionId;
    const idempotencyKey = key('shared');
    await ledger().postPurchase({ subscriptionId, amountCents: 100, idempotencyKey });
    expect((await refusal(ledger().postPurchase({ subscriptionId: other, amountCents: 100, idempotencyKey }))).code).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    const wrongKind = await refusal(
      ledger().addAdminFunds({ subscriptionId, amountCents: 100, idempotencyKey, category: 'REFUND_MAINTENANCE_COST' }),
    );
    expect(wrongKind).toMatchObject({ statusCode: 409, code: 'IDEMPOTENCY_KEY_REUSED', message: MESSAGES.idempotencyKeyReused });
  });

  it('adds staff funds with their category; they do not expire', async () => {
    const { subscriptionId } = await emptySubscription();
    const { entry } = await ledger().addAdminFunds({
      subscriptionId,
      amountCents: 2_500,
      idempotencyKey: key('admin'),
      category: 'REFUND_MAINTENANCE_COST',
      remark: 'Maintenance window on March 3',
    });
    expect(entry).toMatchObject({
      kind: 'ADMIN_FUNDS',
      category: 'REFUND_MAINTENANCE_COST',
      amountCents: 2_500,
      remark: 'Maintenance window on March 3',
    });
    const badCategory = await refusal(
      ledger().addAdminFunds({ subscriptionId, amountCents: 1, idempotencyKey: key('admin'), category: 'PURCHASED' as never }),
    );
    expect(badCategory.statusCode).toBe(400);
    ctx.clock.advance(60 * DAY);
    await ledger().expireDueCredits();
    expect(await balanceOf(subscriptionId)).toBe(2_500);
  });

  it('spends unexpired free credits before paid funds, the earliest-expiring first', async () => {
    const { subscriptionId } = await emptySubscription();
    await ledger().postPurchase({ subscriptionId, amountCents: 10_000, idempotencyKey: key('checkout') });
    const late = await ledger().grantFreeCredits({ subscriptionId, amountCents: 3_000, idempotencyKey: key('grant'), validDays: 20 });
    const soon = await ledger().grantFreeCredits({ subscriptionId, amountCents: 2_000, idempotencyKey: key('grant'), validDays: 5 });

    const usage = await ledger().debitUsage({ subscriptionId, amountCents: 4_000, idempotencyKey: key('usage') });
    const allocations = await ctx.database.db.select().from(creditAllocations).where(eq(creditAllocations.entryId, usage.entry.id));
    expect(new Map(allocations.map((a) => [a.grantEntryId, a.amountCents]))).toEqual(
      new Map([
        [soon.entry.id, 2_000],
        [late.entry.id, 2_000],
      ]),
    );
    await ledger().debitUsage({ subscriptionId, amountCents: 1_500, idempotencyKey: key('usage') });
    const grants = await ctx.database.db.select().from(creditGrants).where(eq(creditGrants.subscriptionId, subscriptionId));
    expect(grants.map((grant) => grant.remainingCents)).toEqual([0, 0]);
    // 10,000 paid + 5,000 credits − 5,500 usage: the last 500 came from paid funds.
    expect(await balanceOf(subscriptionId)).toBe(9_500);
    expect(await sumOf(subscriptionId)).toBe(9_500);
  });

  it('expires what is left of a grant after 30 days with an entry the customer sees, once', async () => {
    const customer = await newCustomer(ctx);
    const subscriptionId = await newSubscription(ctx, customer);
    await ledger().debitUsage({ subscriptionId, amountCents: 12_000, idempotencyKey: key('usage') });
    ctx.clock.advance(30 * DAY - HOUR);
    await ledger().expireDueCredits();
    expect(await balanceOf(subscriptionId)).toBe(38_000);

    ctx.clock.advance(HOUR);
    await ledger().expireDueCredits();
    await ledger().expireDueCredits();
    const expiries = (await entriesOf(subscriptionId)).filter((entry) => entry.kind === 'CREDIT_EXPIRY');
    expect(expiries).toHaveLength(1);
    expect(expiries[0]).toMatchObject({ category: 'CREDITS_EXPIRED', amountCents: -38_000, balanceAfterCents: 0 });
    expect(await balanceOf(subscriptionId)).toBe(0);
  });

  it('never spends credits whose expiry has come, even before the expiry job ran', async () => {
    const { customer, subscriptionId } = await emptySubscription();
    await ctx.services.ledger.setOverdueLimit(customer.accountId, 5_000);
    await ledger().grantFreeCredits({ subscriptionId, amountCents: 4_000, idempotencyKey: key('grant'), validDays: 1 });
    ctx.clock.advance(DAY);
    const usage = await ledger().debitUsage({ subscriptionId, amountCents: 1_000, idempotencyKey: key('usage') });
    expect(await ctx.database.db.select().from(creditAllocations).where(eq(creditAllocations.entryId, usage.entry.id))).toEqual([]);
    const kinds = (await entriesOf(subscriptionId)).map((entry) => [entry.kind, entry.amountCents]);
    expect(kinds).toEqual([
      ['FREE_CREDIT_GRANT', 4_000],
      ['CREDIT_EXPIRY', -4_000],
      ['USAGE', -1_000],
    ]);
    expect(await balanceOf(subscriptionId)).toBe(-1_000);
  });

  it('lets the balance go down to minus the overdue limit and refuses anything below', async () => {
    const { customer, subscriptionId } = await emptySubscription();
    await ledger().postPurchase({ subscriptionId, amountCents: 1_000, idempotencyKey: key('checkout') });
    const overdraw = await refusal(ledger().debitUsage({ subscriptionId, amountCents: 1_001, idempotencyKey: key('usage') }));
    expect(overdraw).toMatchObject({ statusCode: 422, code: 'INSUFFICIENT_FUNDS', message: MESSAGES.insufficientFunds });
    expect(await ledger().overdueLimit(customer.accountId)).toBe(0);

    await ledger().setOverdueLimit(customer.accountId, 2_000);
    await ledger().debitUsage({ subscriptionId, amountCents: 3_000, idempotencyKey: key('usage') });
    expect(await balanceOf(subscriptionId)).toBe(-2_000);
    expect((await refusal(ledger().debitUsage({ subscriptionId, amountCents: 1, idempotencyKey: key('usage') }))).code).toBe(
      'INSUFFICIENT_FUNDS',
    );
    expect(await sumOf(subscriptionId)).toBe(-2_000);
  });

  it('refunds paid money of a purchase, never more than it paid nor more than is unspent', async () => {
    const { subscriptionId } = await emptySubscription();
    const purchase = await ledger().postPurchase({ subscriptionId, amountCents: 5_000, idempotencyKey: key('checkout') });
    await ledger().grantFreeCredits({ subscriptionId, amountCents: 10_000, idempotencyKey: key('grant') });
    await ledger().debitUsage({ subscriptionId, amountCents: 11_000, idempotencyKey: key('usage') });
    // 4,000 of the purchase is still unspent; the credits are not refundable.
    const tooMuch = await refusal(
      ledger().refund({ subscriptionId, purchaseEntryId: purchase.entry.id, amountCents: 4_001, idempotencyKey: key('refund') }),
    );
    expect(tooMuch).toMatchObject({ statusCode: 422, code: 'REFUND_NOT_ALLOWED' });
    const refund = await ledger().refund({
      subscriptionId,
      purchaseEntryId: purchase.entry.id,
      amountCents: 4_000,
      idempotencyKey: key('refund'),
    });
    expect(refund.entry).toMatchObject({ kind: 'REFUND', category: 'REFUND', amountCents: -4_000, refundOfEntryId: purchase.entry.id });
    expect(await balanceOf(subscriptionId)).toBe(0);
    const notAPurchase = await refusal(
      ledger().refund({ subscriptionId, purchaseEntryId: refund.entry.id, amountCents: 1, idempotencyKey: key('refund') }),
    );
    expect(notAPurchase.statusCode).toBe(404);
  });

  it('refuses amounts that are not positive whole cents', async () => {
    const { subscriptionId } = await emptySubscription();
    for (const amountCents of [0, -5, 1.5, Number.NaN]) {
      expect((await refusal(ledger().postPurchase({ subscriptionId, amountCents, idempotencyKey: key('bad') }))).statusCode).toBe(400);
    }
  });

  it('keeps entries and allocations append-only in the database itself', async () => {
    const { subscriptionId } = await emptySubscription();
    const { entry } = await ledger().postPurchase({ subscriptionId, amountCents: 700, idempotencyKey: key('checkout') });
    await expect(ctx.database.db.update(ledgerEntries).set({ amountCents: 7 }).where(eq(ledgerEntries.id, entry.id))).rejects.toThrow();
    await expect(ctx.database.db.delete(ledgerEntries).where(eq(ledgerEntries.id, entry.id))).rejects.toThrow();
    const [row] = await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, entry.id));
    expect(row?.amountCents).toBe(700);
  });

  it('has one entry per idempotency key across the whole ledger', async () => {
    const duplicates = await ctx.database.db
      .select({ key: ledgerEntries.idempotencyKey })
      .from(ledgerEntries)
      .groupBy(ledgerEntries.idempotencyKey)
      .having(sql`count(*) > 1`);
    expect(duplicates).toEqual([]);
  });
});

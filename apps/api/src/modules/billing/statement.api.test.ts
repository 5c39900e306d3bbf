import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATEMENT_TRANSFER_LABELS } from '@kumo/contract';
import { DAY, HOUR, MINUTE } from '../../clock.js';
import { peopleAround } from '../../../test/support/account-people.js';
import { TEST_CARDS, createSubscription, openCheckout, payWith, paymentStatus } from '../../../test/support/checkout.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { meteredOwner } from '../../../test/support/metering.js';
import { pdfText } from '../../../test/support/pdf-text.js';

const kinds = await databaseKinds();
const cents = (dollars: number) => Math.round(dollars * 100);
const total = (lines: { amount: number }[]) => lines.reduce((sum, line) => sum + cents(line.amount), 0);

describe.each(kinds)('monthly statements on %s', (kind) => {
  let ctx: TestContext;
  let owner: Awaited<ReturnType<typeof meteredOwner>>;
  let people: Awaited<ReturnType<typeof peopleAround>>;
  /** A live subscription whose paid funds moved out to the owner's in August. */
  let spare: string;
  const path = (month: string, format = 'json', subscriptionId = owner.subscriptionId) =>
    `/api/subscription/statement/${subscriptionId}?month=${month}&format=${format}`;

  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
    // July: sign-up credits, a card top-up, an automatic top-up, staff funds, a short grant and usage.
    ctx.clock.set('2026-07-20T10:00:00Z');
    const email = `statement.owner.${kind}@example.com`;
    owner = await meteredOwner(ctx, email, { backup: true });
    const checkout = await openCheckout(ctx, owner.tokens.jwt, owner.subscriptionId, 40);
    expect((await payWith(ctx, checkout.path, TEST_CARDS.success)).statusCode).toBeLessThan(400);
    expect((await paymentStatus(ctx, owner.tokens.jwt, owner.subscriptionId, checkout.sessionId)).statusCode).toBe(200);
    await ctx.database.db.transaction((tx) =>
      ctx.services.billing.creditAutomaticPurchase(
        {
          ...owner.customer,
          subscriptionId: owner.subscriptionId,
          amountCents: 2_500,
          currency: 'USD',
          idempotencyKey: `statement-auto-${kind}`,
          paymentId: `pi_statement_${kind}`,
          paymentMethod: 'Visa •••• 4242',
        },
        tx,
      ),
    );
    await ctx.services.ledger.addAdminFunds({
      subscriptionId: owner.subscriptionId,
      amountCents: 1_234,
      idempotencyKey: `statement-staff-${kind}`,
      category: 'SERVICE_CREDIT',
    });
    // Usage across the month's end, then an August grant left unspent until it runs out.
    ctx.clock.set('2026-07-31T20:00:00Z');
    for (let i = 0; i < 6; i++) {
      ctx.clock.advance(HOUR + 5 * MINUTE);
      await ctx.services.metering.run();
    }
    await ctx.services.ledger.grantFreeCredits({
      subscriptionId: owner.subscriptionId,
      amountCents: 777,
      idempotencyKey: `statement-grant-${kind}`,
      validDays: 1,
    });
    ctx.clock.advance(2 * DAY);
    await ctx.services.ledger.expireDueCredits();
    await ctx.services.ledger.addAdminFunds({
      subscriptionId: owner.subscriptionId,
      amountCents: 500,
      idempotencyKey: `statement-maintenance-${kind}`,
      category: 'REFUND_MAINTENANCE_COST',
    });
    owner.tokens = await logIn(ctx, email);
    // August: a subscription deleted with its paid funds moved here, and paid funds moved out of another one.
    const old = await createSubscription(ctx, owner.tokens.jwt, 'Old');
    await ctx.services.ledger.postPurchase({ subscriptionId: old, amountCents: 3_000, idempotencyKey: `statement-old-${kind}` });
    const deleted = await send(
      ctx,
      'DELETE',
      `/api/subscription/delete/${old}?transfer_to=${owner.subscriptionId}`,
      undefined,
      owner.tokens.jwt,
    );
    expect(deleted.json().transferred_amount).toBe(30);
    spare = await createSubscription(ctx, owner.tokens.jwt, 'Spare');
    await ctx.services.ledger.postPurchase({ subscriptionId: spare, amountCents: 2_000, idempotencyKey: `statement-spare-${kind}` });
    await ctx.services.ledger.transferPaidFunds({
      fromSubscriptionId: spare,
      toSubscriptionId: owner.subscriptionId,
      idempotencyKey: `statement-transfer-${kind}`,
    });
    people = await peopleAround(ctx, { tokens: owner.tokens, ...owner.customer }, `statement.${kind}`);
  });
  afterAll(() => ctx.close());

  it('adds up: opening balance plus every movement is the closing balance, month after month', async () => {
    const july = (await get(ctx, path('2026-07'), owner.tokens.jwt)).json();
    expect(july.opening_balance).toBe(0);
    expect(july.top_ups.map((t: { method: string; amount: number }) => [t.method, t.amount])).toEqual([
      ['CARD', 40],
      ['AUTOMATIC', 25],
    ]);
    expect(july.top_ups.every((t: { receipt_id: string }) => t.receipt_id.startsWith('KC-'))).toBe(true);
    expect(july.staff_additions).toMatchObject([{ amount: 12.34, reason: 'SERVICE_CREDIT' }]);
    expect(july.free_credits_granted.map((g: { amount: number }) => g.amount)).toEqual([500]);
    expect(cents(july.usage.total)).toBeGreaterThan(0);
    expect(total(july.usage.by_cluster)).toBe(cents(july.usage.total));
    expect(july.usage.by_cluster[0].cluster_name).toBe('Alpha');
    expect(total(july.usage.by_cluster[0].services)).toBe(cents(july.usage.by_cluster[0].amount));

    const august = (await get(ctx, path('2026-08'), owner.tokens.jwt)).json();
    expect(august.opening_balance).toBe(july.closing_balance);
    expect(august.free_credits_granted.map((g: { amount: number }) => g.amount)).toEqual([7.77]);
    expect(august.free_credits_expired.map((g: { amount: number }) => g.amount)).toEqual([-7.77]);
    expect(cents(august.usage.total)).toBeGreaterThan(0);
    expect(august.transfers.map((t: { direction: string; amount: number }) => [t.direction, t.amount])).toEqual([
      ['IN', 30],
      ['IN', 20],
    ]);
    const spareAugust = (await get(ctx, path('2026-08', 'json', spare), owner.tokens.jwt)).json();
    expect(spareAugust.transfers.map((t: { direction: string; amount: number }) => [t.direction, t.amount])).toEqual([['OUT', -20]]);
    expect(spareAugust.closing_balance).toBe(0);

    for (const statement of [july, august, spareAugust]) {
      const movements =
        total(statement.top_ups) +
        total(statement.staff_additions) +
        total(statement.free_credits_granted) +
        total(statement.free_credits_expired) +
        total(statement.refunds) +
        total(statement.transfers) -
        cents(statement.usage.total) -
        total(statement.usage.earlier_months) +
        cents(statement.usage.posted_later);
      expect(cents(statement.movements)).toBe(movements);
      expect(cents(statement.opening_balance) + movements).toBe(cents(statement.closing_balance));
    }
    const balance = (await get(ctx, `/api/subscription/details?subscription_id=${owner.subscriptionId}`, owner.tokens.jwt)).json().balance;
    expect(august.closing_balance).toBe(balance);
  });

  it('prints the same totals in the PDF', async () => {
    const july = (await get(ctx, path('2026-07'), owner.tokens.jwt)).json();
    const response = await get(ctx, path('2026-07', 'pdf'), owner.tokens.jwt);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('statement-2026-07.pdf');
    const text = pdfText(response.rawPayload);
    expect(text).toContain('Statement for 2026-07');
    const usd = (amount: number) => `${amount < 0 ? '-' : ''}$${Math.abs(amount).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(text).toContain(usd(july.closing_balance));
    expect(text).toContain(usd(-july.usage.total));
    expect(text).toContain('Automatic top-up');
    const august = pdfText((await get(ctx, path('2026-08', 'pdf'), owner.tokens.jwt)).rawPayload);
    expect(august).toContain(STATEMENT_TRANSFER_LABELS.IN);
    expect(august).toContain(usd((await get(ctx, path('2026-08'), owner.tokens.jwt)).json().closing_balance));
  });

  it('names the customer, says in words what staff added, and prints no heading without lines', async () => {
    const august = pdfText((await get(ctx, path('2026-08', 'pdf'), owner.tokens.jwt)).rawPayload);
    expect(august).toContain('Dana Demo');
    expect(august).toContain(`statement.owner.${kind}@example.com`);
    // A maintenance refund is a service credit to the customer: the statement says so, not the category's name.
    expect(august).toContain('Service credit from Kumo Cloud');
    expect(august).not.toContain('REFUND_MAINTENANCE_COST');
    expect(august).not.toContain('Refund Maintenance Cost');
    // No top-up in August; the spare subscription never had free credits.
    expect(august).not.toContain('TOP-UPS');
    const spareAugust = pdfText((await get(ctx, path('2026-08', 'pdf', spare), owner.tokens.jwt)).rawPayload);
    expect(spareAugust).toContain('TOP-UPS');
    expect(spareAugust).not.toContain('FREE CREDITS');
    expect(spareAugust).not.toContain('STAFF ADDITIONS');
  });

  it('refuses months before the subscription, after now or malformed', async () => {
    for (const month of ['2026-06', '2026-09', '2026-13', '2026-00', '9999-99', '2026-7']) {
      const response = await get(ctx, path(month), owner.tokens.jwt);
      expect(response.statusCode, month).toBe(400);
      expect(response.json().field_errors.month, month).toBeTruthy();
    }
    expect((await get(ctx, `${path('2026-07')}&format=doc`, owner.tokens.jwt)).statusCode).toBe(400);
  });

  it('is for owners, admins and a staff view; a cluster member is refused and another account finds nothing', async () => {
    expect((await get(ctx, path('2026-07'), people.admin.jwt)).statusCode).toBe(200);
    expect((await get(ctx, path('2026-07', 'pdf'), people.staffView.jwt)).statusCode).toBe(200);
    expect((await get(ctx, path('2026-07'), people.member.jwt)).statusCode).toBe(403);
    expect((await get(ctx, path('2026-07'), people.stranger.jwt)).statusCode).toBe(404);
    expect((await get(ctx, path('2026-07'))).statusCode).toBe(401);
  });
});

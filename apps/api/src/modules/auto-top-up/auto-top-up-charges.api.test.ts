import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTO_TOP_UP_MESSAGES, MESSAGES } from '@kumo/contract';
import {
  PaymentGatewayError,
  type SavedCardCharge,
  type SavedCardChargeResult,
  type SavedCardLookup,
} from '../../adapters/payments/index.js';
import { HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { payWith } from '../../../test/support/checkout.js';
import { errorCode, errorMessage, get, logIn, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { clusterEvent, meteredOwner, rows } from '../../../test/support/metering.js';
import { drainJobs } from '../../../test/support/money.js';
import { AUTO_TOP_UP_CHARGE_QUEUE } from './index.js';

const kinds = await databaseKinds();

/** Swaps the provider's saved-card calls for the test, counting the charges made. */
function provider(
  ctx: TestContext,
  answers: {
    charge?: (request: SavedCardCharge) => Promise<SavedCardChargeResult>;
    find?: (lookup: SavedCardLookup) => Promise<SavedCardChargeResult | null>;
  },
) {
  const gateway = ctx.services.paymentGateway;
  const { chargeSaved, findSavedCharge } = gateway;
  const made = { charges: [] as string[], lookups: [] as SavedCardLookup[] };
  gateway.chargeSaved = async (request) => {
    made.charges.push(request.subscriptionId);
    return answers.charge ? answers.charge(request) : chargeSaved(request);
  };
  gateway.findSavedCharge = async (lookup) => {
    made.lookups.push(lookup);
    return answers.find ? answers.find(lookup) : findSavedCharge(lookup);
  };
  return { made, restore: () => Object.assign(gateway, { chargeSaved, findSavedCharge }) };
}

/** The charge after a metering run, driven by the injected clock: once an hour, within the cap, paused by a refusal. */
describe.each(kinds)('automatic top-up charges on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());

  /** An owner with a running cluster, a card saved on the sandbox and top-up on: always under the threshold. */
  async function toppedUp(cardNumber: string, monthlyCap = 25) {
    const email = `topup.${randomUUID().slice(0, 8)}@example.com`;
    const o = { email, ...(await meteredOwner(ctx, email)) };
    const opened = await send(ctx, 'POST', `/api/subscription/${o.subscriptionId}/payment-method`, undefined, o.tokens.jwt);
    expect((await payWith(ctx, new URL(opened.json().redirect_url).pathname, cardNumber)).statusCode).toBe(303);
    const body = { enabled: true, threshold_amount: 999_999, top_up_amount: 10, monthly_cap: monthlyCap };
    const saved = await send(ctx, 'PUT', `/api/subscription/${o.subscriptionId}/auto-top-up`, body, o.tokens.jwt);
    expect(saved.statusCode, saved.body).toBe(200);
    return o;
  }
  type Owner = Awaited<ReturnType<typeof toppedUp>>;
  const settingsOf = async (o: Owner) =>
    (await get(ctx, `/api/subscription/${o.subscriptionId}/auto-top-up`, (await logIn(ctx, o.email)).jwt)).json();
  const credits = (o: Owner) =>
    rows<{ amount_cents: string }>(
      ctx,
      sql`select amount_cents::text from ledger_entries where subscription_id = ${o.subscriptionId} and idempotency_key like 'auto-top-up:%'`,
    );
  const mails = (o: Owner) =>
    rows<{ subject: string }>(
      ctx,
      sql`select subject from mail_outbox where to_address = ${o.email} and subject like '%top-up%' order by seq`,
    );
  const notices = (o: Owner) =>
    rows<{ kind: string; link: string }>(
      ctx,
      sql`select kind, link from notices where account_id = ${o.customer.accountId} and kind like 'TOP_UP%' order by created_at`,
    );
  const charges = (o: Owner) =>
    rows<{ status: string; payment_intent_id: string | null }>(
      ctx,
      sql`select status, payment_intent_id from auto_top_up_charges where subscription_id = ${o.subscriptionId} order by created_at`,
    );
  /** Metering runs twice at once, as overlapping runs would, then the queued charges run (each at least twice). */
  async function runAndCharge() {
    await Promise.all([ctx.services.metering.run(), ctx.services.metering.run()]);
    return drainJobs(ctx, AUTO_TOP_UP_CHARGE_QUEUE, (data) => ctx.services.autoTopUp.charge(String(data.key)));
  }
  /** As runAndCharge, for a provider out of reach or still processing: the jobs throw, as the queue would see. */
  async function runAndFail() {
    await Promise.all([ctx.services.metering.run(), ctx.services.metering.run()]);
    return drainJobs(ctx, AUTO_TOP_UP_CHARGE_QUEUE, (data) =>
      ctx.services.autoTopUp.charge(String(data.key)).then(
        () => expect.fail('the charge settled'),
        (error: unknown) => expect(error).toBeInstanceOf(PaymentGatewayError),
      ),
    );
  }
  const outOfReach = async (): Promise<never> => {
    throw new PaymentGatewayError('connect ECONNREFUSED');
  };

  it('charges once per hour however many runs, again the next hour, and never over the monthly cap', async () => {
    ctx.clock.set('2026-09-01T00:00:00Z');
    const o = await toppedUp('4242424242424242');
    ctx.clock.advance(HOUR);
    expect(await runAndCharge()).toBeGreaterThan(1);
    expect(await credits(o)).toEqual([{ amount_cents: '1000' }]);
    ctx.clock.advance(20 * MINUTE);
    await runAndCharge();
    expect(await credits(o)).toHaveLength(1);

    ctx.clock.advance(HOUR);
    await runAndCharge();
    expect(await credits(o)).toHaveLength(2);
    // A third 10 USD would take the month to 30 USD, over the 25 USD cap: skipped, and said once.
    for (let hour = 0; hour < 3; hour++) {
      ctx.clock.advance(HOUR);
      await runAndCharge();
    }
    expect(await credits(o)).toHaveLength(2);
    const subjects = (await mails(o)).map((m) => m.subject);
    expect(subjects).toEqual([
      'Kumo Analytics Cloud: Costs: automatic top-up of $10.00 added',
      'Kumo Analytics Cloud: Costs: automatic top-up of $10.00 added',
      'Kumo Analytics Cloud: Costs: automatic top-up reached its monthly cap',
    ]);
    expect((await notices(o)).map((n) => [n.kind, n.link])).toEqual([
      ['TOP_UP_SUCCEEDED', `/subscriptions/${o.subscriptionId}`],
      ['TOP_UP_SUCCEEDED', `/subscriptions/${o.subscriptionId}`],
      ['TOP_UP_CAP_REACHED', `/subscriptions/${o.subscriptionId}`],
    ]);
    const settings = await settingsOf(o);
    expect(settings).toMatchObject({
      status: 'ACTIVE',
      month_to_date: 20,
      last_attempt: { amount: 10, outcome: 'SUCCEEDED', message: null },
    });
    // Each top-up is a card purchase with a receipt, named as automatic in the history.
    const history = await ctx.services.billing.transactions(o.customer.accountId, o.subscriptionId, 0, 50);
    const automatic = history.rows.filter((row) => row.description === 'Automatic top-up');
    expect(automatic).toHaveLength(2);
    expect(automatic.every((row) => row.receiptId && row.status === 'SUCCESSFUL' && row.amountCents === 1000)).toBe(true);
  });

  it.each([
    ['declined', '4000000000000341', 'DECLINED', 'Your card was declined.'],
    [
      'needing authentication',
      '4000002760003184',
      'AUTHENTICATION_REQUIRED',
      'Your card was declined. This transaction requires authentication.',
    ],
  ])('pauses on a card %s, tells the owner with a link to top up by hand, and does not try again', async (_, card, outcome, message) => {
    ctx.clock.set('2026-10-01T00:00:00Z');
    const o = await toppedUp(card);
    ctx.clock.advance(HOUR);
    await runAndCharge();
    expect(await credits(o)).toEqual([]);
    expect(await settingsOf(o)).toMatchObject({
      status: 'PAUSED_AFTER_FAILURE',
      enabled: true,
      month_to_date: 0,
      last_attempt: { amount: 10, outcome, message },
    });
    expect((await mails(o)).map((m) => m.subject)).toEqual(['Kumo Analytics Cloud: Costs: automatic top-up failed and is paused']);
    expect((await notices(o)).map((n) => [n.kind, n.link])).toEqual([['TOP_UP_FAILED', `/subscriptions/${o.subscriptionId}`]]);

    ctx.clock.advance(HOUR);
    await runAndCharge();
    expect(await rows(ctx, sql`select 1 from auto_top_up_charges where subscription_id = ${o.subscriptionId}`)).toHaveLength(1);
  });

  it('leaves top-up on while the provider is out of reach, and charges later exactly once', async () => {
    ctx.clock.set('2026-11-01T00:00:00Z');
    const o = await toppedUp('4242424242424242');
    const gateway = ctx.services.paymentGateway;
    const chargeSaved = gateway.chargeSaved;
    gateway.chargeSaved = async () => {
      throw new PaymentGatewayError('connect ECONNREFUSED');
    };
    ctx.clock.advance(HOUR);
    await Promise.all([ctx.services.metering.run(), ctx.services.metering.run()]);
    const failed = await drainJobs(ctx, AUTO_TOP_UP_CHARGE_QUEUE, (data) =>
      ctx.services.autoTopUp.charge(String(data.key)).catch(() => undefined),
    );
    expect(failed).toBeGreaterThan(0);
    expect(await credits(o)).toEqual([]);
    expect((await settingsOf(o)).status).toBe('ACTIVE');
    expect(await mails(o)).toEqual([]);

    gateway.chargeSaved = chargeSaved;
    // The next run, in the same hour, hands the pending charge to the queue again.
    ctx.clock.advance(10 * MINUTE);
    await runAndCharge();
    await runAndCharge();
    expect(await credits(o)).toEqual([{ amount_cents: '1000' }]);
    expect((await mails(o)).map((m) => m.subject)).toEqual(['Kumo Analytics Cloud: Costs: automatic top-up of $10.00 added']);
  });

  it('claims one charge for one dip however long the provider is out of reach, and none within an hour of the last', async () => {
    ctx.clock.set('2026-12-01T00:00:00Z');
    const o = await toppedUp('4242424242424242', 100);
    const down = provider(ctx, { charge: outOfReach });
    for (let hour = 0; hour < 5; hour++) {
      ctx.clock.advance(HOUR);
      await runAndFail();
    }
    expect(await charges(o)).toEqual([{ status: 'PENDING', payment_intent_id: null }]);
    down.restore();
    ctx.clock.set('2026-12-01T06:50:00Z');
    await runAndCharge();
    expect(await credits(o)).toEqual([{ amount_cents: '1000' }]);
    // 07:50 claims the next hour's charge; 08:10 is a new UTC hour but within an hour of it.
    ctx.clock.set('2026-12-01T07:50:00Z');
    await runAndCharge();
    ctx.clock.set('2026-12-01T08:10:00Z');
    await runAndCharge();
    expect(await credits(o)).toHaveLength(2);
    ctx.clock.set('2026-12-01T08:55:00Z');
    await runAndCharge();
    expect(await credits(o)).toHaveLength(3);
  });

  it('keeps the payment intent of a charge still processing, asks about it instead of charging again, and credits it once it succeeds', async () => {
    ctx.clock.set('2027-01-01T00:00:00Z');
    const o = await toppedUp('4242424242424242', 100);
    let outcome: 'PROCESSING' | 'SUCCEEDED' = 'PROCESSING';
    const slow = provider(ctx, {
      charge: async (request) => ({ outcome, paymentIntentId: `pi_slow_${request.subscriptionId}` }),
      find: async (lookup) => ({ outcome, paymentIntentId: lookup.paymentIntentId! }),
    });
    const intentId = `pi_slow_${o.subscriptionId}`;
    ctx.clock.advance(HOUR);
    await runAndFail();
    expect(await charges(o)).toEqual([{ status: 'PENDING', payment_intent_id: intentId }]);
    // Past the day Stripe remembers an Idempotency-Key: still asked about, never made again.
    ctx.clock.advance(25 * HOUR);
    await runAndFail();
    expect(slow.made.charges.filter((id) => id === o.subscriptionId)).toHaveLength(1);
    expect(slow.made.lookups.length).toBeGreaterThan(0);
    expect(slow.made.lookups.every((lookup) => lookup.paymentIntentId?.startsWith('pi_slow_'))).toBe(true);

    outcome = 'SUCCEEDED';
    ctx.clock.advance(MINUTE);
    await runAndCharge();
    slow.restore();
    expect(slow.made.charges.filter((id) => id === o.subscriptionId)).toHaveLength(1);
    expect(await credits(o)).toEqual([{ amount_cents: '1000' }]);
    expect(await charges(o)).toEqual([{ status: 'SUCCEEDED', payment_intent_id: intentId }]);
  });

  it.each([
    ['finds it succeeded, and credits it', 'SUCCEEDED' as const, 'ACTIVE', [{ amount_cents: '1000' }]],
    ['has none, and settles it uncharged, paused and told', null, 'PAUSED_AFTER_FAILURE', []],
  ])('never makes a charge a day old that got no answer: it looks it up, %s', async (_, found, status, credited) => {
    ctx.clock.set('2027-02-01T00:00:00Z');
    const o = await toppedUp('4242424242424242', 100);
    const down = provider(ctx, { charge: outOfReach });
    ctx.clock.advance(HOUR);
    await runAndFail();
    down.restore();
    const late = provider(ctx, {
      find: async (lookup) => (found ? { outcome: found, paymentIntentId: `pi_found_${lookup.idempotencyKey}` } : null),
    });
    ctx.clock.advance(23 * HOUR);
    await runAndCharge();
    late.restore();
    expect(late.made.charges).not.toContain(o.subscriptionId);
    expect(late.made.lookups).toContainEqual(
      expect.objectContaining({ paymentIntentId: null, idempotencyKey: expect.stringContaining(o.subscriptionId) }),
    );
    expect(await credits(o)).toEqual(credited);
    const settings = await settingsOf(o);
    expect(settings.status).toBe(status);
    if (!found) {
      expect(settings.last_attempt).toMatchObject({ outcome: 'DECLINED', message: AUTO_TOP_UP_MESSAGES.chargeUnconfirmed });
      expect((await mails(o)).map((m) => m.subject)).toEqual(['Kumo Analytics Cloud: Costs: automatic top-up failed and is paused']);
    }
  });

  it('carries out a charge that was pending when top-up was turned off', async () => {
    ctx.clock.set('2027-03-01T00:00:00Z');
    const o = await toppedUp('4242424242424242', 100);
    const down = provider(ctx, { charge: outOfReach });
    ctx.clock.advance(HOUR);
    await runAndFail();
    down.restore();
    const body = { enabled: false, threshold_amount: 999_999, top_up_amount: 10, monthly_cap: 100 };
    const off = await send(ctx, 'PUT', `/api/subscription/${o.subscriptionId}/auto-top-up`, body, (await logIn(ctx, o.email)).jwt);
    expect(off.json().status, off.body).toBe('OFF');
    ctx.clock.advance(10 * MINUTE);
    await runAndCharge();
    expect(await credits(o)).toEqual([{ amount_cents: '1000' }]);
    expect(await charges(o)).toEqual([{ status: 'SUCCEEDED', payment_intent_id: expect.any(String) }]);
  });

  it('refuses to delete a subscription while a top-up of it is being charged, and turns top-up off when it is deleted', async () => {
    ctx.clock.set('2027-04-01T00:00:00Z');
    const o = await toppedUp('4242424242424242', 100);
    const down = provider(ctx, { charge: outOfReach });
    ctx.clock.advance(HOUR);
    await runAndFail();
    down.restore();
    await clusterEvent(ctx, o.clusterId, 'CLUSTER_DELETED', 'DELETED');
    const jwt = (await logIn(ctx, o.email)).jwt;
    const remove = () => send(ctx, 'DELETE', `/api/subscription/delete/${o.subscriptionId}`, undefined, jwt);
    const refused = await remove();
    expect([refused.statusCode, errorCode(refused), errorMessage(refused)]).toEqual([
      409,
      'TOP_UP_PENDING',
      MESSAGES.subscriptionTopUpPending,
    ]);

    const declined = provider(ctx, {
      charge: async () => ({ outcome: 'DECLINED', paymentIntentId: null, message: 'Your card was declined.' }),
    });
    const [pending] = await rows<{ key: string }>(
      ctx,
      sql`select idempotency_key as key from auto_top_up_charges where subscription_id = ${o.subscriptionId}`,
    );
    await ctx.services.autoTopUp.charge(pending!.key);
    declined.restore();
    const deleted = await remove();
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await rows(ctx, sql`select enabled, status from auto_top_ups where subscription_id = ${o.subscriptionId}`)).toEqual([
      { enabled: false, status: 'OFF' },
    ]);
  });
});

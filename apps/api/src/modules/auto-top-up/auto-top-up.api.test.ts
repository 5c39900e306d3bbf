import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, AUTO_TOP_UP_MESSAGES, MESSAGES } from '@kumo/contract';
import { PaymentGatewayError, SANDBOX_SETUP_EVENTS_QUEUE } from '../../adapters/payments/index.js';
import { subscriptionAndPeople } from '../../../test/support/account-people.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { payWith, submitCard } from '../../../test/support/checkout.js';
import { errorCode, get, post, send, startTestApp, type TestContext, type Tokens } from '../../../test/support/harness.js';
import { rows } from '../../../test/support/metering.js';
import { drainJobs } from '../../../test/support/money.js';

const kinds = await databaseKinds();

/** The automatic top-up calls: the shapes, the contract's field errors, who may call them, and saving a card on the sandbox. */
describe.each(kinds)('automatic top-up calls on %s', (kind) => {
  let ctx: TestContext;
  let owner: Tokens;
  let admin: Tokens;
  let member: Tokens;
  let other: Tokens;
  let viewing: Tokens;
  let subscriptionId: string;
  const stamp = randomUUID().slice(0, 8);
  const settingsUrl = (id = subscriptionId) => `/api/subscription/${id}/auto-top-up`;
  const cardUrl = (id = subscriptionId) => `/api/subscription/${id}/payment-method`;
  const put = (body: unknown, tokens: Tokens = owner, id = subscriptionId) => send(ctx, 'PUT', settingsUrl(id), body, tokens.jwt);
  const settings = { enabled: true, threshold_amount: 20, top_up_amount: '50.25', monthly_cap: 200 };

  /** Saves a card on the sandbox's setup page through HTTP, as the browser would; answers the page's redirect. */
  async function saveCard(cardNumber: string, tokens: Tokens = owner) {
    const opened = await send(ctx, 'POST', cardUrl(), undefined, tokens.jwt);
    expect(opened.statusCode, opened.body).toBe(200);
    const page = new URL(opened.json().redirect_url).pathname;
    expect((await ctx.app.inject({ method: 'GET', url: page })).body).toContain('Save a card');
    return payWith(ctx, page, cardNumber);
  }

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    ctx.clock.set('2026-07-15T12:00:00Z');
    ({
      owner,
      admin,
      member,
      stranger: other,
      staffView: viewing,
      subscriptionId,
    } = await subscriptionAndPeople(ctx, `topup.${stamp}`, 'Topped'));
  });
  afterAll(() => ctx.close());

  it('answers the defaults, refuses to turn on without a card, saves one on the sandbox, turns on, and removes the card', async () => {
    const none = await get(ctx, settingsUrl(), owner.jwt);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({
      subscription_id: subscriptionId,
      enabled: false,
      threshold_amount: 50,
      top_up_amount: 100,
      monthly_cap: 500,
      status: 'OFF',
      payment_method: null,
      month_to_date: 0,
      last_attempt: null,
    });

    const refused = await put(settings);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(errorCode(refused)).toBe('PAYMENT_METHOD_REQUIRED');
    expect(refused.json().errorDetails.error_message).toBe(AUTO_TOP_UP_MESSAGES.paymentMethodRequired);
    const off = await put({ ...settings, enabled: false });
    expect(off.json()).toMatchObject({ enabled: false, status: 'OFF', threshold_amount: 20, top_up_amount: 50.25, monthly_cap: 200 });

    // A declined card saves nothing; the page says why and stays open.
    const declined = await saveCard('4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Card declined.');
    const saved = await saveCard('4242 4242 4242 4242');
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${ctx.infra.publicUrl}/subscriptions/${subscriptionId}?card=saved`);
    // Read back on the customer's return.
    const back = (await get(ctx, `${settingsUrl()}?card=saved`, owner.jwt)).json();
    expect(back.payment_method).toEqual({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 });

    const on = await put(settings, admin);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ enabled: true, status: 'ACTIVE', payment_method: { last4: '4242' } });

    const removed = await send(ctx, 'DELETE', cardUrl(), undefined, owner.jwt);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ enabled: false, status: 'OFF', payment_method: null, threshold_amount: 20 });
  });

  it('stores a card saved on the sandbox from its notification too, and a new card resumes a paused top-up', async () => {
    await ctx.database.db.execute(
      sql`update auto_top_ups set status = 'PAUSED_AFTER_FAILURE', enabled = true where subscription_id = ${subscriptionId}`,
    );
    const opened = await send(ctx, 'POST', cardUrl(), undefined, owner.jwt);
    const page = new URL(opened.json().redirect_url).pathname;
    expect((await submitCard(ctx, page, { action: 'pay', cardNumber: '4000000000000341', expiry: '01 / 31', cvc: '123' })).statusCode).toBe(
      303,
    );
    expect(
      await drainJobs(ctx, SANDBOX_SETUP_EVENTS_QUEUE, (data) => ctx.services.autoTopUp.cardSaved(String(data.subscription_id))),
    ).toBeGreaterThan(0);
    const [row] = (
      (await ctx.database.db.execute(
        sql`select status, card_last4, setup_session_id from auto_top_ups where subscription_id = ${subscriptionId}`,
      )) as unknown as {
        rows: { status: string; card_last4: string; setup_session_id: string | null }[];
      }
    ).rows;
    expect(row).toEqual({ status: 'ACTIVE', card_last4: '0341', setup_session_id: null });
    await send(ctx, 'DELETE', cardUrl(), undefined, owner.jwt);
  });

  it('asks the provider about an unfinished card-saving session only on the return and the notification, and not once it expired', async () => {
    const gateway = ctx.services.paymentGateway;
    const retrieveSetup = gateway.retrieveSetup;
    let calls = 0;
    gateway.retrieveSetup = (sessionId) => {
      calls++;
      return retrieveSetup(sessionId);
    };
    try {
      // The customer opens the provider's page and leaves it without saving a card.
      expect((await send(ctx, 'POST', cardUrl(), undefined, owner.jwt)).statusCode).toBe(200);
      for (let read = 0; read < 3; read++) expect((await get(ctx, settingsUrl(), owner.jwt)).json().payment_method).toBeNull();
      expect((await put({ ...settings, enabled: false })).statusCode).toBe(200);
      expect(calls).toBe(0);
      expect((await get(ctx, `${settingsUrl()}?card=saved`, owner.jwt)).json().payment_method).toBeNull();
      await ctx.services.autoTopUp.cardSaved(subscriptionId);
      expect(calls).toBe(2);
      // Checkout sessions expire after 24 hours: one opened a day ago can save nothing any more.
      const dayAgo = new Date(ctx.clock.now().getTime() - 24 * 60 * 60 * 1000);
      await ctx.database.db.execute(sql`update auto_top_ups set updated_at = ${dayAgo} where subscription_id = ${subscriptionId}`);
      expect((await get(ctx, `${settingsUrl()}?card=saved`, owner.jwt)).statusCode).toBe(200);
      await ctx.services.autoTopUp.cardSaved(subscriptionId);
      expect((await put(settings)).statusCode).toBe(422);
      expect(calls).toBe(2);
    } finally {
      gateway.retrieveSetup = retrieveSetup;
    }
  });

  it('refuses a card query other than saved', async () => {
    const response = await get(ctx, `${settingsUrl()}?card=lost`, owner.jwt);
    expect(response.statusCode, response.body).toBe(400);
    expect(errorCode(response)).toBe('VALIDATION_FAILED');
  });

  it.each([
    ['no body fields', {}, { enabled: AUTO_TOP_UP_MESSAGES.enabledRequired, threshold_amount: AUTO_TOP_UP_MESSAGES.thresholdRange }],
    ['a negative threshold', { ...settings, threshold_amount: -1 }, { threshold_amount: AUTO_TOP_UP_MESSAGES.thresholdRange }],
    ['a threshold above 999,999', { ...settings, threshold_amount: 1_000_000 }, { threshold_amount: AUTO_TOP_UP_MESSAGES.thresholdRange }],
    ['a top-up below 1', { ...settings, top_up_amount: 0.99 }, { top_up_amount: AUTO_TOP_UP_MESSAGES.topUpRange }],
    ['three decimals', { ...settings, top_up_amount: '10.125' }, { top_up_amount: AUTO_TOP_UP_MESSAGES.decimals }],
    ['a cap above 9,999,999', { ...settings, monthly_cap: 10_000_000 }, { monthly_cap: AUTO_TOP_UP_MESSAGES.monthlyCapRange }],
    [
      'a cap below the top-up',
      { ...settings, top_up_amount: 100, monthly_cap: 99 },
      { monthly_cap: AUTO_TOP_UP_MESSAGES.monthlyCapBelowTopUp },
    ],
    ['enabled as text', { ...settings, enabled: 'yes' }, { enabled: AUTO_TOP_UP_MESSAGES.enabledRequired }],
  ])('refuses %s with a field error in the contract shape', async (_, body, fieldErrors) => {
    const response = await put(body);
    expect(response.statusCode, response.body).toBe(400);
    expect(errorCode(response)).toBe('VALIDATION_FAILED');
    expect(response.json().field_errors).toMatchObject(fieldErrors);
  });

  it('refuses an id that is not a subscription id, and one that does not exist', async () => {
    const malformed = await get(ctx, settingsUrl('nope'), owner.jwt);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().field_errors).toEqual({ subscriptionId: MESSAGES.subscriptionNotFound });
    for (const unknown of [put(settings, owner, randomUUID()), send(ctx, 'POST', cardUrl(randomUUID()), undefined, owner.jwt)]) {
      const response = await unknown;
      expect(response.statusCode).toBe(404);
      expect(response.json().errorDetails.error_message).toBe(MESSAGES.subscriptionNotFound);
    }
  });

  it('lets the owner and the account admins in, refuses a cluster member, and finds nothing of another account', async () => {
    expect((await get(ctx, settingsUrl(), admin.jwt)).statusCode).toBe(200);
    expect((await send(ctx, 'POST', cardUrl(), undefined, admin.jwt)).statusCode).toBe(200);
    const calls = (tokens: Tokens) => [
      get(ctx, settingsUrl(), tokens.jwt),
      put({ ...settings, enabled: false }, tokens),
      send(ctx, 'POST', cardUrl(), undefined, tokens.jwt),
      send(ctx, 'DELETE', cardUrl(), undefined, tokens.jwt),
    ];
    for (const call of calls(member)) {
      const response = await call;
      expect(response.statusCode).toBe(403);
      expect(errorCode(response)).toBe('FORBIDDEN');
    }
    for (const call of calls(other)) {
      const response = await call;
      expect(response.statusCode).toBe(404);
      expect(response.json().errorDetails.error_message).toBe(MESSAGES.subscriptionNotFound);
    }
    expect((await get(ctx, settingsUrl(), undefined)).statusCode).toBe(401);
  });

  it('shows a staff member viewing the customer the settings, and refuses them every change', async () => {
    await put({ ...settings, enabled: false, threshold_amount: 33 });
    const seen = await get(ctx, settingsUrl(), viewing.jwt);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().threshold_amount).toBe(33);
    for (const call of [
      put({ ...settings, enabled: false }, viewing),
      send(ctx, 'POST', cardUrl(), undefined, viewing.jwt),
      send(ctx, 'DELETE', cardUrl(), undefined, viewing.jwt),
    ]) {
      const response = await call;
      expect(response.statusCode).toBe(403);
      expect(errorCode(response)).toBe('READ_ONLY_VIEW');
      expect(response.json().errorDetails.error_message).toBe(ADMIN_MESSAGES.readOnlyView);
    }
    expect((await get(ctx, settingsUrl(), owner.jwt)).json().threshold_amount).toBe(33);
  });

  it('answers 503 with Retry-After when the payment provider cannot open the page', async () => {
    const gateway = ctx.services.paymentGateway;
    const createSetup = gateway.createSetup;
    gateway.createSetup = async () => {
      throw new (await import('../../adapters/payments/index.js')).PaymentGatewayError('down');
    };
    try {
      const response = await send(ctx, 'POST', cardUrl(), undefined, owner.jwt);
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBeDefined();
      expect(response.json().errorDetails.error_message).toBe(AUTO_TOP_UP_MESSAGES.cardsUnavailable);
    } finally {
      gateway.createSetup = createSetup;
    }
  });

  it('keeps a pause and a card stored while the card-saving page was being opened', async () => {
    const gateway = ctx.services.paymentGateway;
    const createSetup = gateway.createSetup;
    gateway.createSetup = async (request) => {
      const opened = await createSetup(request);
      // Meanwhile a refused charge pauses top-up, and a card saved in another tab is stored.
      await ctx.database.db.execute(
        sql`update auto_top_ups set status = 'PAUSED_AFTER_FAILURE', enabled = true, payment_method_id = 'pm_meanwhile', card_last4 = '4444'
            where subscription_id = ${subscriptionId}`,
      );
      return opened;
    };
    try {
      expect((await send(ctx, 'POST', cardUrl(), undefined, owner.jwt)).statusCode).toBe(200);
    } finally {
      gateway.createSetup = createSetup;
    }
    const [row] = await rows(
      ctx,
      sql`select status, payment_method_id, card_last4, setup_session_id is not null as opened from auto_top_ups where subscription_id = ${subscriptionId}`,
    );
    expect(row).toEqual({ status: 'PAUSED_AFTER_FAILURE', payment_method_id: 'pm_meanwhile', card_last4: '4444', opened: true });
    await send(ctx, 'DELETE', cardUrl(), undefined, owner.jwt);
  });

  it('answers 503 with Retry-After when top-up is turned on just after saving a card and the provider cannot be reached', async () => {
    expect((await send(ctx, 'POST', cardUrl(), undefined, owner.jwt)).statusCode).toBe(200);
    const gateway = ctx.services.paymentGateway;
    const retrieveSetup = gateway.retrieveSetup;
    gateway.retrieveSetup = () => Promise.reject(new PaymentGatewayError('connect ECONNREFUSED'));
    try {
      const response = await put(settings);
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBeDefined();
      expect(response.json().errorDetails.error_message).toBe(AUTO_TOP_UP_MESSAGES.cardsUnavailable);
    } finally {
      gateway.retrieveSetup = retrieveSetup;
    }
  });

  it('refuses the card read-back to a staff view and a READ token, and lets both read the settings', async () => {
    const body = { name: 'reader', scope: 'READ', expires_in_days: 30, allowed_ips: [] };
    const created = await post(ctx, '/api/user/api-tokens', body, owner.jwt);
    expect(created.statusCode, created.body).toBe(200);
    for (const [token, code] of [
      [viewing.jwt, 'READ_ONLY_VIEW'],
      [created.json().token as string, 'TOKEN_SCOPE'],
    ]) {
      expect((await get(ctx, settingsUrl(), token)).statusCode).toBe(200);
      const back = await get(ctx, `${settingsUrl()}?card=saved`, token);
      expect([back.statusCode, errorCode(back)]).toEqual([403, code]);
    }
  });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_MESSAGES } from '@kumo/contract';
import { signedUpOwner } from '../../../test/support/account-people.js';
import { createSubscription, payWith } from '../../../test/support/checkout.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, get, post, send, startTestApp, type TestContext, type Tokens } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

/** No script spends on the card: a personal API token may read automatic top-up, turn it off or lower it, and no more. */
describe.each(kinds)('automatic top-up with a personal API token on %s', (kind) => {
  let ctx: TestContext;
  let owner: Tokens;
  let subscriptionId: string;
  let token: string;
  const settingsUrl = () => `/api/subscription/${subscriptionId}/auto-top-up`;
  const cardUrl = () => `/api/subscription/${subscriptionId}/payment-method`;
  const settings = { enabled: true, threshold_amount: 20, top_up_amount: 50, monthly_cap: 200 };

  const withToken = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    ctx.app.inject({ method, url, payload: body as object | undefined, headers: { authorization: `Bearer ${token}` } });
  const stored = async () =>
    (
      await ctx.database.db.execute(
        sql`select enabled, status, top_up_cents::int, monthly_cap_cents::int, card_last4
              from auto_top_ups where subscription_id = ${subscriptionId}`,
      )
    ).rows[0];

  beforeAll(async () => {
    ctx = await startTestApp(kind);
    ctx.clock.set('2026-07-15T12:00:00Z');
    const account = await signedUpOwner(ctx, `topup.token.${randomUUID().slice(0, 8)}@example.com`, 'Olga Owner');
    owner = account.tokens;
    subscriptionId = await createSubscription(ctx, owner.jwt, 'Scripted');
    const created = await post(
      ctx,
      '/api/user/api-tokens',
      { name: 'ops', scope: 'WRITE', expires_in_days: 30, allowed_ips: [] },
      owner.jwt,
    );
    expect(created.statusCode, created.body).toBe(200);
    token = created.json().token;
    // The owner, signed in, saves a card on the sandbox's page.
    const opened = await send(ctx, 'POST', cardUrl(), undefined, owner.jwt);
    expect(opened.statusCode, opened.body).toBe(200);
    expect((await payWith(ctx, new URL(opened.json().redirect_url).pathname, '4242 4242 4242 4242')).statusCode).toBe(303);
    expect((await get(ctx, `${settingsUrl()}?card=saved`, owner.jwt)).json().payment_method).toMatchObject({ last4: '4242' });
  });
  afterAll(() => ctx?.close());

  it('refuses a token turning top-up on, even with the amounts a person saved', async () => {
    const off = await send(ctx, 'PUT', settingsUrl(), { ...settings, enabled: false }, owner.jwt);
    expect(off.statusCode, off.body).toBe(200);
    const on = await withToken('PUT', settingsUrl(), settings);
    expect([on.statusCode, errorCode(on), errorMessage(on)]).toEqual([403, 'TOKEN_NOT_ALLOWED', API_TOKEN_MESSAGES.topUpRaised]);
    expect(await stored()).toMatchObject({ enabled: false, status: 'OFF' });
  });

  it('refuses a token raising the amount, the cap or the threshold, and taking a paused top-up back to work', async () => {
    expect((await send(ctx, 'PUT', settingsUrl(), settings, owner.jwt)).statusCode).toBe(200);
    for (const raised of [
      { ...settings, top_up_amount: 999_999, monthly_cap: 9_999_999 },
      { ...settings, top_up_amount: 51 },
      { ...settings, monthly_cap: 201 },
      { ...settings, threshold_amount: 21 },
    ]) {
      const refused = await withToken('PUT', settingsUrl(), raised);
      expect([refused.statusCode, errorCode(refused)], JSON.stringify(raised)).toEqual([403, 'TOKEN_NOT_ALLOWED']);
    }
    expect(await stored()).toMatchObject({ enabled: true, top_up_cents: 5000, monthly_cap_cents: 20000 });

    await ctx.database.db.execute(sql`update auto_top_ups set status = 'PAUSED_AFTER_FAILURE' where subscription_id = ${subscriptionId}`);
    const resumed = await withToken('PUT', settingsUrl(), settings);
    expect([resumed.statusCode, errorCode(resumed)]).toEqual([403, 'TOKEN_NOT_ALLOWED']);
    expect(await stored()).toMatchObject({ status: 'PAUSED_AFTER_FAILURE' });
    expect((await send(ctx, 'PUT', settingsUrl(), settings, owner.jwt)).json()).toMatchObject({ status: 'ACTIVE' });
  });

  it('lets a token read top-up, lower it and turn it off', async () => {
    expect((await withToken('GET', settingsUrl())).json()).toMatchObject({ enabled: true, top_up_amount: 50 });
    const lowered = await withToken('PUT', settingsUrl(), { ...settings, threshold_amount: 10, top_up_amount: 25, monthly_cap: 100 });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(lowered.json()).toMatchObject({ enabled: true, status: 'ACTIVE', top_up_amount: 25, monthly_cap: 100 });
    const off = await withToken('PUT', settingsUrl(), {
      ...settings,
      enabled: false,
      threshold_amount: 10,
      top_up_amount: 25,
      monthly_cap: 100,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await stored()).toMatchObject({ enabled: false, status: 'OFF' });
  });

  it('refuses a token saving or removing the card', async () => {
    for (const method of ['POST', 'DELETE'] as const) {
      const refused = await withToken(method, cardUrl());
      expect([refused.statusCode, errorCode(refused)], method).toEqual([403, 'TOKEN_NOT_ALLOWED']);
    }
    expect(await stored()).toMatchObject({ card_last4: '4242' });
  });
});

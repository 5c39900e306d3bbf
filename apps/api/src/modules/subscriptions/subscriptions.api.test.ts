import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { DAY } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, get, logIn, post, send, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { createSubscription, history } from '../../../test/support/checkout.js';

const kinds = await databaseKinds();
let counter = 0;
const freshEmail = () => `subs${++counter}.${Date.now()}@example.com`;

describe.each(kinds)('subscriptions on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  const create = (jwt: string, body: unknown) => post(ctx, '/api/subscription/create', body, jwt);

  it('starts empty, and the first subscription comes with $500 of free credits expiring in 30 days', async () => {
    const { jwt } = await signUp(ctx, freshEmail(), 'Ada Lovelace');
    expect((await get(ctx, '/api/subscription/list', jwt)).json()).toEqual([]);

    const created = await create(jwt, { subscription_name: 'Analytics', remark: 'Team reporting', subscription_type: 'PREPAID' });
    expect(created.statusCode).toBe(200);
    const id = created.json().subscription_id as string;
    expect(created.json().message).toBe(MESSAGES.subscriptionCreated);

    const [subscription] = (await get(ctx, '/api/subscription/list', jwt)).json();
    expect(subscription).toEqual({
      subscription_id: id,
      subscription_name: 'Analytics',
      subscription_type: 'PREPAID',
      remark: 'Team reporting',
      status: 'ACTIVE',
      total_amount: 500,
      balance: 500,
      credits: 500,
      credits_expire_at: new Date(ctx.clock.now().getTime() + 30 * DAY).toISOString(),
      consumed_amount: 0,
      forecasted_amount: 0,
      active_cluster_count: 0,
      clusters: [],
      created_by: 'Ada Lovelace',
      subscribed_by_email_id: expect.stringContaining('@example.com'),
      created_at: ctx.clock.now().toISOString(),
    });
    const details = await get(ctx, `/api/subscription/details?subscription_id=${id}`, jwt);
    expect(details.json()).toEqual(subscription);

    const [grant] = (await history(ctx, jwt, id)).content;
    expect(grant).toMatchObject({
      category: 'FREE_CREDITS',
      amount: 500,
      type: 'CREDIT',
      transaction_status: 'SUCCESSFUL',
      receipt_id: null,
    });
  });

  it('gives the sign-up credits once per account, even when the first subscription is deleted', async () => {
    const { jwt } = await signUp(ctx, freshEmail());
    const first = await createSubscription(ctx, jwt, 'First one');
    const second = await createSubscription(ctx, jwt, 'Second one');
    expect((await send(ctx, 'DELETE', `/api/subscription/delete/${first}`, undefined, jwt)).statusCode).toBe(200);
    const third = await createSubscription(ctx, jwt, 'Third one');
    const list = (await get(ctx, '/api/subscription/list', jwt)).json();
    expect(list.map((s: { subscription_id: string; total_amount: number }) => [s.subscription_id, s.total_amount])).toEqual([
      [second, 0],
      [third, 0],
    ]);
  });

  it('grants the sign-up credits to exactly one of two subscriptions created at the same moment', async () => {
    const { jwt } = await signUp(ctx, freshEmail());
    const results = await Promise.all([create(jwt, { subscription_name: 'Race one' }), create(jwt, { subscription_name: 'Race two' })]);
    expect(results.map((response) => response.statusCode)).toEqual([200, 200]);
    const balances = (await get(ctx, '/api/subscription/list', jwt)).json().map((s: { total_amount: number }) => s.total_amount);
    expect(balances.sort()).toEqual([0, 500]);
  });

  describe('name and remark rules', () => {
    let jwt: string;
    beforeAll(async () => {
      jwt = (await signUp(ctx, freshEmail())).jwt;
    });

    it.each([
      ['', MESSAGES.subscriptionNameRequired],
      ['   ', MESSAGES.subscriptionNameRequired],
      ['ab', MESSAGES.subscriptionNameFormat],
      ['1abc', MESSAGES.subscriptionNameFormat],
      ['ab1c', MESSAGES.subscriptionNameFormat],
      ['abc!', MESSAGES.subscriptionNameFormat],
      ['abcé', MESSAGES.subscriptionNameFormat],
      ['A'.repeat(51), MESSAGES.subscriptionNameFormat],
    ])('refuses the name %j', async (name, message) => {
      const response = await create(jwt, { subscription_name: name });
      expect(response.statusCode).toBe(400);
      expect(response.json().field_errors).toEqual({ subscription_name: message });
    });

    it('requires the name field itself', async () => {
      const response = await create(jwt, { remark: 'no name' });
      expect(response.statusCode).toBe(400);
      expect(response.json().field_errors.subscription_name).toBe(MESSAGES.subscriptionNameRequired);
    });

    it.each(['abc', 'Abc-_ 9', `Abc${'x'.repeat(47)}`])('accepts the name %j', async (name) => {
      expect((await create(jwt, { subscription_name: name })).statusCode).toBe(200);
    });

    it('trims the name, and refuses a name already used in the account whatever its case', async () => {
      expect((await create(jwt, { subscription_name: '  Marketing  ' })).statusCode).toBe(200);
      const again = await create(jwt, { subscription_name: 'MARKETING' });
      expect(again.statusCode).toBe(409);
      expect(errorCode(again)).toBe('SUBSCRIPTION_NAME_TAKEN');
      expect(errorMessage(again)).toBe(MESSAGES.subscriptionNameTaken);
    });

    it('takes remarks up to 200 characters', async () => {
      expect((await create(jwt, { subscription_name: 'Remark ok', remark: 'r'.repeat(200) })).statusCode).toBe(200);
      const long = await create(jwt, { subscription_name: 'Remark long', remark: 'r'.repeat(201) });
      expect(long.statusCode).toBe(400);
      expect(long.json().field_errors).toEqual({ remark: MESSAGES.remarkTooLong });
    });

    it('knows only prepaid subscriptions', async () => {
      const response = await create(jwt, { subscription_name: 'Postpaid', subscription_type: 'POSTPAID' });
      expect(response.statusCode).toBe(400);
      expect(Object.keys(response.json().field_errors)).toEqual(['subscription_type']);
    });
  });

  it('shows another account nothing: its subscriptions are 404 everywhere', async () => {
    const owner = (await signUp(ctx, freshEmail())).jwt;
    const stranger = (await signUp(ctx, freshEmail())).jwt;
    const id = await createSubscription(ctx, owner, 'Private');

    expect((await get(ctx, '/api/subscription/list', stranger)).json()).toEqual([]);
    const probes = [
      await get(ctx, `/api/subscription/details?subscription_id=${id}`, stranger),
      await get(ctx, `/api/credit/view/credit-transactions/${id}?page=0&size=20`, stranger),
      await send(ctx, 'DELETE', `/api/subscription/delete/${id}`, undefined, stranger),
      await post(ctx, '/api/credit/purchase', { amount: 10, subscription_id: id }, stranger),
    ];
    for (const response of probes) {
      expect(response.statusCode).toBe(404);
      expect(errorMessage(response)).toBe(MESSAGES.subscriptionNotFound);
    }
    expect((await get(ctx, '/api/subscription/list', owner)).json()).toHaveLength(1);
  });

  it('answers bad ids with 400 and unknown ones with 404', async () => {
    const { jwt } = await signUp(ctx, freshEmail());
    const bad = await get(ctx, '/api/subscription/details?subscription_id=not-a-uuid', jwt);
    expect(bad.statusCode).toBe(400);
    expect(errorCode(bad)).toBe('VALIDATION_FAILED');
    expect((await get(ctx, '/api/subscription/details', jwt)).statusCode).toBe(400);
    const unknown = await get(ctx, '/api/subscription/details?subscription_id=00000000-0000-4000-8000-000000000000', jwt);
    expect(unknown.statusCode).toBe(404);
    expect((await send(ctx, 'DELETE', '/api/subscription/delete/nope', undefined, jwt)).statusCode).toBe(400);
  });

  it('requires a signed-in account owner or admin', async () => {
    expect((await get(ctx, '/api/subscription/list')).statusCode).toBe(401);
    expect((await post(ctx, '/api/subscription/create', { subscription_name: 'Nobody' })).statusCode).toBe(401);
  });

  it('drops the sign-up credits from the balance once they expire, with an entry in the history', async () => {
    const email = freshEmail();
    const id = await createSubscription(ctx, (await signUp(ctx, email)).jwt, 'Expiring');
    ctx.clock.advance(30 * DAY);
    await ctx.services.ledger.expireDueCredits();
    const { jwt } = await logIn(ctx, email);
    const details = (await get(ctx, `/api/subscription/details?subscription_id=${id}`, jwt)).json();
    expect(details).toMatchObject({ total_amount: 0, credits: 0, credits_expire_at: null });
    const [latest] = (await history(ctx, jwt, id)).content;
    expect(latest).toMatchObject({ category: 'CREDITS_EXPIRED', amount: -500, type: 'DEBIT', description: 'Unused free credits expired' });
  });
});

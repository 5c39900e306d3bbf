import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES, BUDGET_MESSAGES, MESSAGES } from '@kumo/contract';
import { subscriptionAndPeople } from '../../../test/support/account-people.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, send, startTestApp, type TestContext, type Tokens } from '../../../test/support/harness.js';

const kinds = await databaseKinds();

/** The budget calls: the shapes, the contract's field errors, and who may call them. */
describe.each(kinds)('budget calls on %s', (kind) => {
  let ctx: TestContext;
  let owner: Tokens;
  let admin: Tokens;
  let member: Tokens;
  let other: Tokens;
  let viewing: Tokens;
  let subscriptionId: string;
  const stamp = randomUUID().slice(0, 8);
  const budgetUrl = (id = subscriptionId) => `/api/subscription/${id}/budget`;
  const put = (body: unknown, tokens: Tokens = owner, id = subscriptionId) => send(ctx, 'PUT', budgetUrl(id), body, tokens.jwt);

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
    } = await subscriptionAndPeople(ctx, `budget.${stamp}`, 'Budgeted'));
  });
  afterAll(() => ctx.close());

  it('answers the defaults without a budget, saves one with the defaults filled in, and removes it', async () => {
    const none = await get(ctx, budgetUrl(), owner.jwt);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({
      subscription_id: subscriptionId,
      monthly_amount: null,
      thresholds: [50, 75, 90, 100],
      alert_on_forecast: false,
      stop_clusters_at_limit: false,
      month_to_date: 0,
      forecast: 0,
      start_headroom_per_hour: null,
      alerts: [],
    });

    const saved = await put({ monthly_amount: '1250.5' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      monthly_amount: 1250.5,
      thresholds: [50, 75, 90, 100],
      alert_on_forecast: false,
      stop_clusters_at_limit: false,
    });

    const changed = await put({ monthly_amount: 999_999, thresholds: [120, 5, 80], alert_on_forecast: true, stop_clusters_at_limit: true });
    expect(changed.json()).toMatchObject({
      monthly_amount: 999_999,
      thresholds: [5, 80, 120],
      alert_on_forecast: true,
      stop_clusters_at_limit: true,
      // Nothing spent and nothing running: a cluster may cost up to the whole budget over the hours the cap looks
      // ahead, two in the tests' cloud (an hour of a minute, a run a minute that may come half a minute late).
      start_headroom_per_hour: 499_999.5,
    });
    expect((await get(ctx, budgetUrl(), admin.jwt)).json()).toEqual(changed.json());

    const removed = await send(ctx, 'DELETE', budgetUrl(), undefined, owner.jwt);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ monthly_amount: null, thresholds: [50, 75, 90, 100] });
    expect((await get(ctx, budgetUrl(), owner.jwt)).json().monthly_amount).toBeNull();
  });

  it.each([
    ['no amount', {}, { monthly_amount: BUDGET_MESSAGES.amountRange }],
    ['an amount below 1', { monthly_amount: 0.99 }, { monthly_amount: BUDGET_MESSAGES.amountRange }],
    ['an amount above 999,999', { monthly_amount: 999_999.01 }, { monthly_amount: BUDGET_MESSAGES.amountRange }],
    ['three decimals', { monthly_amount: '10.125' }, { monthly_amount: BUDGET_MESSAGES.amountDecimals }],
    ['a word', { monthly_amount: 'ten' }, { monthly_amount: BUDGET_MESSAGES.amountRange }],
    ['a negative amount', { monthly_amount: -5 }, { monthly_amount: BUDGET_MESSAGES.amountRange }],
    ['no thresholds', { monthly_amount: 10, thresholds: [] }, { thresholds: BUDGET_MESSAGES.thresholdsCount }],
    [
      'eleven thresholds',
      { monthly_amount: 10, thresholds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] },
      { thresholds: BUDGET_MESSAGES.thresholdsCount },
    ],
    ['thresholds that are not a list', { monthly_amount: 10, thresholds: '50' }, { thresholds: BUDGET_MESSAGES.thresholdsCount }],
    ['a threshold of 0', { monthly_amount: 10, thresholds: [0, 50] }, { 'thresholds.0': BUDGET_MESSAGES.thresholdRange }],
    ['a threshold above 200', { monthly_amount: 10, thresholds: [50, 201] }, { 'thresholds.1': BUDGET_MESSAGES.thresholdRange }],
    ['a fractional threshold', { monthly_amount: 10, thresholds: [50.5] }, { 'thresholds.0': BUDGET_MESSAGES.thresholdRange }],
    ['a threshold as text', { monthly_amount: 10, thresholds: ['50'] }, { 'thresholds.0': BUDGET_MESSAGES.thresholdRange }],
    ['a repeated threshold', { monthly_amount: 10, thresholds: [50, 75, 50] }, { thresholds: BUDGET_MESSAGES.thresholdsDistinct }],
    ['alert_on_forecast as text', { monthly_amount: 10, alert_on_forecast: 'yes' }, { alert_on_forecast: BUDGET_MESSAGES.flagRequired }],
    [
      'stop_clusters_at_limit as a number',
      { monthly_amount: 10, stop_clusters_at_limit: 1 },
      { stop_clusters_at_limit: BUDGET_MESSAGES.flagRequired },
    ],
  ])('refuses %s with a field error in the contract shape', async (_, body, fieldErrors) => {
    const response = await put(body);
    expect(response.statusCode, response.body).toBe(400);
    expect(errorCode(response)).toBe('VALIDATION_FAILED');
    expect(response.json().field_errors).toEqual(fieldErrors);
    expect((await get(ctx, budgetUrl(), owner.jwt)).json().monthly_amount).toBeNull();
  });

  it.each(['GET', 'PUT', 'DELETE'] as const)(
    '%s refuses an id that is not a subscription id, and one that does not exist',
    async (method) => {
      const call = (id: string) =>
        method === 'GET'
          ? get(ctx, budgetUrl(id), owner.jwt)
          : send(ctx, method, budgetUrl(id), method === 'PUT' ? { monthly_amount: 10 } : undefined, owner.jwt);
      const malformed = await call('nope');
      expect(malformed.statusCode).toBe(400);
      expect(errorCode(malformed)).toBe('VALIDATION_FAILED');
      expect(malformed.json().field_errors).toEqual({ subscriptionId: MESSAGES.subscriptionNotFound });
      const unknown = await call(randomUUID());
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().errorDetails.error_message).toBe(MESSAGES.subscriptionNotFound);
    },
  );

  it('lets the owner and the account admins in, refuses a cluster member, and finds nothing of another account', async () => {
    expect((await put({ monthly_amount: 300 }, admin)).statusCode).toBe(200);
    expect((await send(ctx, 'DELETE', budgetUrl(), undefined, admin.jwt)).statusCode).toBe(200);

    for (const call of [
      get(ctx, budgetUrl(), member.jwt),
      put({ monthly_amount: 10 }, member),
      send(ctx, 'DELETE', budgetUrl(), undefined, member.jwt),
    ]) {
      const response = await call;
      expect(response.statusCode).toBe(403);
      expect(errorCode(response)).toBe('FORBIDDEN');
    }
    for (const call of [
      get(ctx, budgetUrl(), other.jwt),
      put({ monthly_amount: 10 }, other),
      send(ctx, 'DELETE', budgetUrl(), undefined, other.jwt),
    ]) {
      const response = await call;
      expect(response.statusCode).toBe(404);
      expect(response.json().errorDetails.error_message).toBe(MESSAGES.subscriptionNotFound);
    }
    expect((await get(ctx, budgetUrl(), undefined)).statusCode).toBe(401);
    expect((await get(ctx, budgetUrl(), owner.jwt)).json().monthly_amount).toBeNull();
  });

  it('shows a staff member viewing the customer the budget, and refuses them every change', async () => {
    await put({ monthly_amount: 400 });
    const seen = await get(ctx, budgetUrl(), viewing.jwt);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().monthly_amount).toBe(400);
    for (const call of [put({ monthly_amount: 10 }, viewing), send(ctx, 'DELETE', budgetUrl(), undefined, viewing.jwt)]) {
      const response = await call;
      expect(response.statusCode).toBe(403);
      expect(errorCode(response)).toBe('READ_ONLY_VIEW');
      expect(response.json().errorDetails.error_message).toBe(ADMIN_MESSAGES.readOnlyView);
    }
    expect((await get(ctx, budgetUrl(), owner.jwt)).json().monthly_amount).toBe(400);
  });
});

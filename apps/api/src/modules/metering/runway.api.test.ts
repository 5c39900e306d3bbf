import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, post, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { balanceCents, clusterEvent, newMeteredCluster, rows } from '../../../test/support/metering.js';
import { DEFAULT_RATES, clusterHourCents } from './rate-card.js';

const kinds = await databaseKinds();

describe.each(kinds)('balance outlook on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());

  /** A signed-up owner with the first subscription (it carries the $500 sign-up credits). */
  async function owner(email: string) {
    const tokens = await signUp(ctx, email);
    const created = await post(ctx, '/api/subscription/create', { subscription_name: 'Runway', remark: '' }, tokens.jwt);
    const subscriptionId: string = created.json().subscription_id;
    const [who] = await rows<{ account_id: string; user_id: string }>(
      ctx,
      sql`select a.id as account_id, u.id as user_id from users u join accounts a on a.owner_user_id = u.id where u.email = ${email}`,
    );
    return { subscriptionId, customer: { accountId: who!.account_id, userId: who!.user_id } };
  }
  const outlookOf = async (email: string, subscriptionId: string) =>
    get(ctx, `/api/subscription/consumption/outlook/${subscriptionId}`, (await logIn(ctx, email)).jwt);

  it('says how long the balance lasts, paid funds and each free-credit grant apart', async () => {
    ctx.clock.set('2026-06-01T00:00:00Z');
    const a = await owner('outlook.a@example.com');
    await ctx.services.ledger.addAdminFunds({
      subscriptionId: a.subscriptionId,
      amountCents: 20_000,
      idempotencyKey: 'outlook-paid',
      category: 'REFUND_MAINTENANCE_COST',
    });
    // A second grant that expires first: usage spends it before the sign-up credits.
    await ctx.services.ledger.grantFreeCredits({
      subscriptionId: a.subscriptionId,
      amountCents: 5_000,
      idempotencyKey: 'outlook-bonus',
      validDays: 10,
    });

    const idle = (await outlookOf('outlook.a@example.com', a.subscriptionId)).json();
    // Nothing runs: no rate and no runway to tell.
    expect(idle).toMatchObject({
      balance: 750,
      paid_funds: 200,
      free_credits: 550,
      hourly_rate: 0,
      runway_hours: null,
      overdue_limit: 0,
      hours_until_stop: null,
    });

    const cluster = await newMeteredCluster(ctx, a.customer, a.subscriptionId);
    await clusterEvent(ctx, cluster, 'CLUSTER_RESOURCES_CREATED');
    await clusterEvent(ctx, cluster, 'CLUSTER_DEPLOYED', 'ONLINE');
    ctx.clock.advance(MINUTE);
    await ctx.services.metering.run();
    const charged = 75_000 - (await balanceCents(ctx, a.subscriptionId));
    expect(charged).toBeGreaterThan(0);

    const response = await outlookOf('outlook.a@example.com', a.subscriptionId);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const hourCents = clusterHourCents(DEFAULT_RATES, 'running', false);
    const balance = 75_000 - charged;
    expect(body).toMatchObject({
      subscription_id: a.subscriptionId,
      balance: balance / 100,
      paid_funds: 200,
      free_credits: (55_000 - charged) / 100,
      hourly_rate: hourCents / 100,
      runway_hours: Math.round((balance / hourCents) * 10) / 10,
      // No overdue limit: the clusters stop when the balance is used up.
      overdue_limit: 0,
      hours_until_stop: Math.round((balance / hourCents) * 10) / 10,
      scheduled_rate_changes: [],
    });

    // With an overdue limit the clusters run on below zero, until the balance reaches minus the limit.
    await ctx.services.ledger.setOverdueLimit(a.customer.accountId, 30_000);
    const withLimit = (await outlookOf('outlook.a@example.com', a.subscriptionId)).json();
    expect(withLimit).toMatchObject({
      runway_hours: Math.round((balance / hourCents) * 10) / 10,
      overdue_limit: 300,
      hours_until_stop: Math.round(((balance + 30_000) / hourCents) * 10) / 10,
    });
    expect(body.free_credit_grants).toEqual([
      {
        granted_at: '2026-06-01T00:00:00.000Z',
        amount: 50,
        remaining: (5_000 - charged) / 100,
        expires_at: '2026-06-11T00:00:00.000Z',
        // A minute has passed: 9 whole days are left.
        days_left: 9,
      },
      { granted_at: '2026-06-01T00:00:00.000Z', amount: 500, remaining: 500, expires_at: '2026-07-01T00:00:00.000Z', days_left: 29 },
    ]);

    // On its last day a grant has 0 whole days left; once expired it is gone from the list and the credits.
    ctx.clock.set('2026-06-10T12:00:00Z');
    expect((await outlookOf('outlook.a@example.com', a.subscriptionId)).json().free_credit_grants[0].days_left).toBe(0);
    await clusterEvent(ctx, cluster, 'CLUSTER_DELETED', 'DELETED');
    ctx.clock.set('2026-06-11T00:00:01Z');
    const later = (await outlookOf('outlook.a@example.com', a.subscriptionId)).json();
    expect(later.free_credit_grants.map((g: { amount: number }) => g.amount)).toEqual([500]);
    expect(later.free_credits).toBe(500);
  });

  it('shows a scheduled rate change with the rates it changes until it takes effect', async () => {
    ctx.clock.set('2026-06-15T10:00:00Z');
    const a = await owner('outlook.rates@example.com');
    const effective = new Date('2026-06-20T00:00:00Z');
    await ctx.services.metering.setRates(
      a.customer.accountId,
      [
        { dimension: 'QUERY_ENGINES', rateE4: 900, freeUnits: 0 },
        // The same as now: not a change, not listed.
        { dimension: 'BI_SERVER', rateE4: 600, freeUnits: 0 },
        { dimension: 'DATA_PROCESS', rateE4: 500, freeUnits: 20 },
      ],
      effective,
      null,
    );
    const before = (await outlookOf('outlook.rates@example.com', a.subscriptionId)).json();
    expect(before.scheduled_rate_changes).toEqual([
      {
        effective_date: '2026-06-20T00:00:00.000Z',
        rates: [
          { dimension: 'QUERY_ENGINES', rate: 0.09, previous_rate: 0.06, free_units: 0, previous_free_units: 0 },
          { dimension: 'DATA_PROCESS', rate: 0.05, previous_rate: 0.05, free_units: 20, previous_free_units: 50 },
        ],
      },
    ]);

    ctx.clock.set(new Date(effective.getTime() - 1));
    expect((await outlookOf('outlook.rates@example.com', a.subscriptionId)).json().scheduled_rate_changes).toHaveLength(1);
    ctx.clock.set(effective);
    expect((await outlookOf('outlook.rates@example.com', a.subscriptionId)).json().scheduled_rate_changes).toEqual([]);
  });

  it("answers 404 for another account's subscription", async () => {
    ctx.clock.set('2026-06-25T00:00:00Z');
    const a = await owner('outlook.mine@example.com');
    await owner('outlook.other@example.com');
    const response = await outlookOf('outlook.other@example.com', a.subscriptionId);
    expect(response.statusCode).toBe(404);
    expect(response.json().errorDetails.error_code).toBe('NOT_FOUND');
  });
});

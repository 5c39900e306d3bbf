import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription, type Customer } from '../../../test/support/money.js';
import { balanceCents, clusterEvent, newMeteredCluster, rows } from '../../../test/support/metering.js';
import { DEFAULT_RATES, clusterHourCents } from './rate-card.js';

const kinds = await databaseKinds();
/**
 * The rates of these accounts: no free units, and storage requests free (the cloud holds no stack for these clusters,
 * so it counts none), so every hour is charged at HOUR_CENTS and the forecast expects just that.
 */
const RATES = DEFAULT_RATES.map((r) =>
  r.dimension === 'PERSISTENT_STORAGE_REQUESTS' ? { ...r, rateE4: 0 } : r.freeUnits > 0 ? { ...r, freeUnits: 0 } : r,
);
/** What the running cluster costs each hour. */
const HOUR_CENTS = clusterHourCents(RATES, 'running', false);
/** Its query engines' part, charged once the hour has ended and settled (five minutes later). */
const ENGINE_HOUR_CENTS = clusterHourCents(
  RATES.map((r) => (r.dimension === 'QUERY_ENGINES' ? r : { ...r, rateE4: 0 })),
  'running',
  false,
);

/**
 * The owner's runway mails (docs/metering.md, Balance rules), on the injected clock: under 7 days, under 1 day,
 * 24 hours before the overdue guard stops clusters, and 3 days before free credits expire; each sent once.
 */
describe.each(kinds)('runway and credit-expiry notices on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Real hours: a billable hour lasts 60 minutes of the test clock.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());

  async function ownerEmail(customer: Customer): Promise<string> {
    const [row] = await rows<{ email: string }>(ctx, sql`select email from users where id = ${customer.userId}`);
    return row!.email;
  }

  /** The notices in the owner's bell, by kind, oldest first. */
  const bell = async (customer: Customer, kind: string) =>
    rows<{ title: string; body: string; link: string }>(
      ctx,
      sql`select title, body, link from notices where recipient_user_id = ${customer.userId} and account_id = ${customer.accountId} and kind = ${kind} order by created_at`,
    );

  const mailsTo = async (email: string, pattern: RegExp) =>
    (await ctx.services.mail.listRecent(500)).filter((m) => m.toAddress === email && pattern.test(m.textBody));

  /**
   * A running cluster on a subscription without free credits whose balance, once the first hour is charged (all but
   * its query engines, charged with the next hour), lasts `hours` hours and one cent at the current rate. Each further
   * hour takes it an hour closer: the next hour begins and the engines of the one before are charged.
   */
  async function lasting(hours: number, overdueLimitHours = 0) {
    const customer = await newCustomer(ctx);
    // The account's first subscription carries the sign-up credits; the second holds only what is added here.
    await newSubscription(ctx, customer, 'Credits');
    const subscriptionId = await newSubscription(ctx, customer, 'Runway');
    // No free units: every hour costs the same.
    await ctx.services.metering.setRates(customer.accountId, [...RATES], ctx.clock.now(), null);
    await ctx.services.ledger.setOverdueLimit(customer.accountId, overdueLimitHours * HOUR_CENTS);
    await ctx.services.ledger.addAdminFunds({
      subscriptionId,
      amountCents: (hours + 1) * HOUR_CENTS + 1 - ENGINE_HOUR_CENTS,
      idempotencyKey: `notices:${subscriptionId}`,
      category: 'REFUND_MAINTENANCE_COST',
    });
    const clusterId = await newMeteredCluster(ctx, customer, subscriptionId);
    await clusterEvent(ctx, clusterId, 'CLUSTER_RESOURCES_CREATED');
    await clusterEvent(ctx, clusterId, 'CLUSTER_DEPLOYED', 'ONLINE');
    // Past the engines' settling time, so each later hour's run also charges the whole hour before it.
    ctx.clock.advance(6 * MINUTE);
    await ctx.services.metering.run();
    expect(await balanceCents(ctx, subscriptionId)).toBe(hours * HOUR_CENTS + 1);
    return { email: await ownerEmail(customer), subscriptionId, clusterId, customer };
  }

  /** An hour later: the next hour charged, by two runs (a replay must send nothing twice). */
  async function nextHour() {
    ctx.clock.advance(HOUR);
    await ctx.services.metering.run();
    await ctx.services.metering.run();
  }

  const SEVEN_DAYS = /lasts about \d+ days?\./;
  const ONE_DAY = /lasts less than a day/;
  const BEFORE_STOP = /reaches the overdue limit in /;

  it('mails once when the balance first lasts under 7 days', async () => {
    ctx.clock.set('2026-05-04T00:00:00Z');
    const a = await lasting(7 * 24);
    expect(await mailsTo(a.email, SEVEN_DAYS)).toHaveLength(0);

    await nextHour();
    const sent = await mailsTo(a.email, SEVEN_DAYS);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Kumo Analytics Cloud: SubRunway: your balance runs out soon');
    expect(sent[0]!.textBody).toContain(`At the current rate of $${(HOUR_CENTS / 100).toFixed(2)} per hour`);
    expect(sent[0]!.textBody).toContain('lasts about 6 days');

    await nextHour();
    expect(await mailsTo(a.email, SEVEN_DAYS)).toHaveLength(1);
    expect(await mailsTo(a.email, ONE_DAY)).toHaveLength(0);
    // The same notice is in the owner's bell, once, however many runs replay it.
    expect(await bell(a.customer, 'RUNWAY')).toEqual([
      {
        title: 'SubRunway: your balance runs out soon',
        body: expect.stringContaining('lasts about 6 days'),
        link: `/subscriptions/${a.subscriptionId}`,
      },
    ]);
  });

  it('mails once when the balance first lasts under a day', async () => {
    ctx.clock.set('2026-05-08T00:00:00Z');
    // An overdue limit of two days' use: under a day of balance is not yet under 24 hours before the stop.
    const a = await lasting(24, 48);
    expect(await mailsTo(a.email, ONE_DAY)).toHaveLength(0);

    await nextHour();
    expect(await mailsTo(a.email, ONE_DAY)).toHaveLength(1);
    await nextHour();
    await nextHour();
    expect(await mailsTo(a.email, ONE_DAY)).toHaveLength(1);
    // The 7-day notice came first, once; no second one on the way down.
    const week = await mailsTo(a.email, SEVEN_DAYS);
    expect(week).toHaveLength(1);
    // A day and a bit is one day, not "1 days".
    expect(week[0]!.textBody).toContain('lasts about 1 day.');
    expect(await mailsTo(a.email, BEFORE_STOP)).toHaveLength(0);
  });

  it('sends one mail, the most urgent, when the first charge crosses several thresholds at once', async () => {
    ctx.clock.set('2026-05-10T00:00:00Z');
    // No overdue limit: the clusters stop when the balance is used up, 5 hours after the first deploy. That is under
    // 7 days, under a day and under 24 hours before the stop, all crossed by the same charge.
    const a = await lasting(5);
    const all = async () => (await ctx.services.mail.listRecent(500)).filter((m) => m.toAddress === a.email);
    const first = await all();
    expect(first.map((m) => m.subject)).toEqual(['Kumo Analytics Cloud: SubRunway: clusters stop within 24 hours']);
    expect(first[0]!.textBody).toContain('reaches the overdue limit in about 5 hours.');

    // The notices crossed with it are not sent on their own later either.
    await nextHour();
    await nextHour();
    expect(await all()).toHaveLength(1);
  });

  it('says one hour in the singular, and less than an hour once under one', async () => {
    ctx.clock.set('2026-05-11T00:00:00Z');
    const a = await lasting(1);
    const sent = await mailsTo(a.email, BEFORE_STOP);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.textBody).toContain('reaches the overdue limit in about 1 hour.');

    ctx.clock.set('2026-06-01T00:00:00Z');
    const b = await lasting(0);
    const under = await mailsTo(b.email, BEFORE_STOP);
    expect(under).toHaveLength(1);
    expect(under[0]!.textBody).toContain('reaches the overdue limit in less than an hour.');
  });

  it('mails once 24 hours before the overdue guard stops the clusters, which it does 24 hours later', async () => {
    ctx.clock.set('2026-05-12T00:00:00Z');
    // An overdue limit of 10 hours' use: clusters stop 10 hours after the balance reaches zero.
    const a = await lasting(14, 10);
    expect(await mailsTo(a.email, BEFORE_STOP)).toHaveLength(0);

    await nextHour();
    const sent = await mailsTo(a.email, BEFORE_STOP);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Kumo Analytics Cloud: SubRunway: clusters stop within 24 hours');
    expect(sent[0]!.textBody).toContain('reaches the overdue limit in about 23 hours');

    const status = async () => (await rows<{ status: string }>(ctx, sql`select status from clusters where id = ${a.clusterId}`))[0]!.status;
    ctx.clock.advance(22 * HOUR);
    await nextHour();
    expect(await status()).toBe('ONLINE');
    expect(await mailsTo(a.email, BEFORE_STOP)).toHaveLength(1);
    await nextHour();
    expect(await status()).toBe('STOPPING');
    expect(await mailsTo(a.email, /were stopped \(not deleted/)).toHaveLength(1);
    // Each mail is one notice in the owner's bell: the warning and the stop, once each across every run.
    await nextHour();
    expect(await bell(a.customer, 'OVERDUE_WARNING')).toHaveLength(1);
    const stops = await bell(a.customer, 'OVERDUE_STOP');
    expect(stops).toHaveLength(1);
    expect(stops[0]!.title).toBe('Clusters of SubRunway were stopped');
    expect(stops[0]!.body).toContain('These clusters were stopped (not deleted; their data is kept)');
  });

  it('mails once 3 days before free credits expire, with what is left to lose', async () => {
    ctx.clock.set('2026-05-16T00:00:00Z');
    const customer = await newCustomer(ctx);
    const subscriptionId = await newSubscription(ctx, customer, 'Bonus');
    const email = await ownerEmail(customer);
    const EXPIRY = /of free credits on SubBonus expire on/;

    ctx.clock.set(new Date(Date.parse('2026-06-15T00:00:00Z') - 3 * DAY - MINUTE));
    await ctx.services.metering.run();
    expect(await mailsTo(email, EXPIRY)).toHaveLength(0);

    ctx.clock.advance(2 * MINUTE);
    await ctx.services.metering.run();
    await ctx.services.metering.run();
    const sent = await mailsTo(email, EXPIRY);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.textBody).toContain('$500.00 of free credits on SubBonus expire on Mon, 15 Jun 2026 00:00:00 GMT.');

    ctx.clock.advance(2 * DAY);
    await ctx.services.metering.run();
    expect(await mailsTo(email, EXPIRY)).toHaveLength(1);
    expect((await bell(customer, 'CREDIT_EXPIRY')).map((n) => n.title)).toEqual(['Free credits of SubBonus expire soon']);
    expect(await balanceCents(ctx, subscriptionId)).toBe(50_000);
  });

  it('mails each grant 3 days before its own expiry, with what is left of that grant', async () => {
    ctx.clock.set('2026-07-01T00:00:00Z');
    const customer = await newCustomer(ctx);
    const subscriptionId = await newSubscription(ctx, customer, 'Grants');
    const email = await ownerEmail(customer);
    // A $50 bonus that expires before the $500 sign-up credits.
    ctx.clock.set('2026-07-03T00:00:00Z');
    await ctx.services.ledger.grantFreeCredits({
      subscriptionId,
      amountCents: 5_000,
      idempotencyKey: `bonus:${subscriptionId}`,
      validDays: 10,
    });
    const EXPIRY = /of free credits on SubGrants expire on/;

    ctx.clock.set('2026-07-10T00:01:00Z');
    await ctx.services.metering.run();
    await ctx.services.metering.run();
    expect((await mailsTo(email, EXPIRY)).map((m) => m.textBody.match(/\$[\d,.]+ of free credits .*? GMT/)?.[0])).toEqual([
      '$50.00 of free credits on SubGrants expire on Mon, 13 Jul 2026 00:00:00 GMT',
    ]);

    ctx.clock.set('2026-07-28T00:01:00Z');
    await ctx.services.metering.run();
    expect((await mailsTo(email, EXPIRY)).map((m) => m.textBody.match(/\$[\d,.]+ of free credits .*? GMT/)?.[0]).sort()).toEqual([
      '$50.00 of free credits on SubGrants expire on Mon, 13 Jul 2026 00:00:00 GMT',
      '$500.00 of free credits on SubGrants expire on Fri, 31 Jul 2026 00:00:00 GMT',
    ]);
  });
});

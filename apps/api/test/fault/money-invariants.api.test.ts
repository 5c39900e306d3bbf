import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../src/clock.js';
import { openCheckout, payWith, paymentStatus, TEST_CARDS, createSubscription } from '../support/checkout.js';
import { databaseKinds } from '../support/databases.js';
import { checkMoneyInvariants } from '../support/fault/money-invariants.js';
import { signUp, startTestApp, type TestContext } from '../support/harness.js';
import { clusterEvent, newMeteredCluster, rows } from '../support/metering.js';

// The fault tests and the soak trust this checker to say whether a crash lost or doubled money: it must
// pass a ledger the services wrote and name each kind of break.

const kinds = await databaseKinds();

describe.each(kinds)('the money invariants the fault tests check, on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());

  const pool = () => (ctx.database.db as unknown as { $client: pg.Pool }).$client;

  it('hold on what the services wrote, and name every break', async () => {
    const { jwt } = await signUp(ctx, `invariants.${randomUUID()}@example.com`, 'Ivy Invariant');
    const subscriptionId = await createSubscription(ctx, jwt, 'Checked');
    const checkout = await openCheckout(ctx, jwt, subscriptionId, '25.50');
    expect((await payWith(ctx, checkout.path, TEST_CARDS.success)).statusCode).toBe(303);
    expect((await paymentStatus(ctx, jwt, subscriptionId, checkout.sessionId)).json().transaction_status).toBe('SUCCESSFUL');
    const [owner] = await rows<{ account_id: string; user_id: string }>(
      ctx,
      sql`select account_id, created_by_user_id as user_id from subscriptions where id = ${subscriptionId}`,
    );
    const accountId = owner!.account_id;
    const userId = owner!.user_id;
    const clusterId = await newMeteredCluster(ctx, { accountId, userId }, subscriptionId);
    await clusterEvent(ctx, clusterId, 'CLUSTER_DEPLOYED', 'ONLINE');
    ctx.clock.advance(3 * HOUR + 10 * MINUTE);
    await ctx.services.metering.run();

    const confirmed = [{ checkoutSessionId: checkout.sessionId, subscriptionId, cents: 2550 }];
    const sound = await checkMoneyInvariants(pool(), confirmed);
    expect(sound.broken).toEqual([]);
    expect(sound.chargedHours).toBeGreaterThan(0);
    expect(sound.confirmedTopUps).toBe(1);

    // A confirmed top-up missing from the ledger, or credited with another amount.
    const lost = await checkMoneyInvariants(pool(), [
      ...confirmed,
      { checkoutSessionId: 'cs_never_credited', subscriptionId, cents: 1000 },
      { ...confirmed[0]!, cents: 2551 },
    ]);
    expect(lost.broken).toEqual([
      expect.stringMatching(/^confirmed top-up checkout:cs_never_credited of 1000 cents on .*: 0 ledger entries \(none\)$/),
      expect.stringMatching(/^confirmed top-up checkout:.* of 2551 cents on .*: 1 ledger entries \(2550 on .* as PURCHASE\)$/),
    ]);

    // An hour charged a second time on a grid shifted by a minute, outside the ledger; and a balance off its ledger.
    const [charge] = await rows<{ dimension: string; hour_start: Date }>(
      ctx,
      sql`select dimension, hour_start from metering_charges where cluster_id = ${clusterId} order by hour_start limit 1`,
    );
    await ctx.database.db.execute(sql`
      insert into metering_charges (cluster_id, dimension, hour_start, subscription_id, account_id, quantity, free_quantity, rate_e4,
                                    amount_cents, run_id, charged_at)
      values (${clusterId}, ${charge!.dimension}, ${new Date(new Date(charge!.hour_start).getTime() + MINUTE)}, ${subscriptionId},
              ${accountId}, 1, 0, 100, 7, gen_random_uuid(), now())`);
    await ctx.database.db.execute(sql`update subscriptions set balance_cents = balance_cents + 1 where id = ${subscriptionId}`);
    const broken = await checkMoneyInvariants(pool(), confirmed);
    expect(broken.broken).toEqual([
      expect.stringMatching(/^subscription .*: balance -?\d+ cents, its ledger entries sum to -?\d+$/),
      expect.stringMatching(new RegExp(`^cluster ${clusterId} charged ${charge!.dimension} for an hour off its grid`)),
      expect.stringMatching(/^subscription .*: hours charged \d+ cents, usage entries \d+, rollups \d+$/),
    ]);
  });
});

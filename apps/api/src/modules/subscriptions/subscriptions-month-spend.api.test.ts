import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../test/support/databases.js';
import { get, logIn, post, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { meteredOwner, rows } from '../../../test/support/metering.js';

const kinds = await databaseKinds();

/** "Used this month" on the subscriptions is metering's month spend, the one the budget reads. */
describe.each(kinds)("subscriptions' month spend on %s", (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Real hours: a billable hour lasts 60 minutes of the test clock.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 } });
  });
  afterAll(() => ctx.close());

  it('shows what the budget shows, also when last month’s final hours are charged after the month turned', async () => {
    ctx.clock.set('2026-07-31T18:00:00Z');
    const email = `month.spend.${randomUUID().slice(0, 8)}@example.com`;
    const owner = await meteredOwner(ctx, email);
    // A second subscription with nothing running: the list reads several at once.
    const jwtOf = async () => (await logIn(ctx, email)).jwt;
    const idle: string = (await post(ctx, '/api/subscription/create', { subscription_name: 'Idle', remark: '' }, await jwtOf())).json()
      .subscription_id;
    // The run after midnight charges July's last hours and August's first ones in one ledger entry dated August.
    ctx.clock.set('2026-08-01T03:30:00Z');
    await ctx.services.metering.run();
    const [ledgerUsage] = await rows<{ cents: string }>(
      ctx,
      sql`select coalesce(-sum(amount_cents), 0)::text as cents from ledger_entries
          where subscription_id = ${owner.subscriptionId} and kind = 'USAGE' and created_at >= '2026-08-01T00:00:00Z'`,
    );

    const jwt = await jwtOf();
    const budget = (await get(ctx, `/api/subscription/${owner.subscriptionId}/budget`, jwt)).json();
    const list: { subscription_id: string; consumed_amount: number; forecasted_amount: number }[] = (
      await get(ctx, '/api/subscription/list', jwt)
    ).json();
    const listed = list.find((subscription) => subscription.subscription_id === owner.subscriptionId)!;
    expect(budget.month_to_date).toBeGreaterThan(0);
    // The ledger's usage since the month began holds July's hours too: more than August has used.
    expect(Number(ledgerUsage!.cents) / 100).toBeGreaterThan(budget.month_to_date);
    expect(listed).toMatchObject({ consumed_amount: budget.month_to_date, forecasted_amount: budget.forecast });
    expect(list.find((subscription) => subscription.subscription_id === idle)).toMatchObject({
      consumed_amount: 0,
      forecasted_amount: 0,
    });

    const details = (await get(ctx, `/api/subscription/details?subscription_id=${owner.subscriptionId}`, jwt)).json();
    expect(details).toEqual(listed);
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { centsToAmount } from '@kumo/contract';
import { HOUR } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { logIn, post, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { meteredOwner } from '../../../test/support/metering.js';
import { startReceiver, type Receiver } from '../../../test/support/webhook-receiver.js';

const kinds = await databaseKinds();

/** Events that come from what other modules already write: a budget's alert, sent once however often it is written. */
describe.each(kinds)('webhook events from budgets on %s', (kind) => {
  let ctx: TestContext;
  let target: Receiver;
  beforeAll(async () => {
    // Real hours: a billable hour lasts 60 minutes of the test clock, as in the budgets' own tests.
    ctx = await startTestApp(kind, { cloud: { simTimeScale: 1 }, webhookAllowPrivate: true });
  });
  afterAll(() => ctx.close());
  afterEach(() => target.close());

  it("sends budget.threshold_reached when a budget's threshold is crossed, once, signed", async () => {
    ctx.clock.set('2026-08-01T00:00:00Z');
    const email = `hooks.${randomUUID().slice(0, 8)}@example.com`;
    const o = await meteredOwner(ctx, email);
    target = await startReceiver();
    const created = await post(ctx, '/api/account/webhooks', { url: target.url, events: ['budget.threshold_reached'] }, o.tokens.jwt);
    expect(created.statusCode, created.body).toBe(200);
    target.secret = created.json().secret;

    // Four hours of spend (the query engines' last two not yet charged), then a budget of two hours: every threshold is
    // crossed when it is saved.
    for (let hour = 0; hour < 4; hour++) {
      ctx.clock.advance(HOUR);
      await ctx.services.metering.run();
    }
    const spend = await ctx.services.metering.monthSpend(o.customer.accountId, [o.subscriptionId]);
    const budget = { monthly_amount: centsToAmount(spend.get(o.subscriptionId)!.hourlyCents * 2) };
    const jwt = (await logIn(ctx, email)).jwt;
    expect((await send(ctx, 'PUT', `/api/subscription/${o.subscriptionId}/budget`, budget, jwt)).statusCode).toBe(200);
    // More runs write no new alert, and the same alert is not sent again.
    ctx.clock.advance(HOUR);
    await ctx.services.metering.run();
    await ctx.services.webhooks.sweep();

    expect(target.received).toHaveLength(1);
    const [event] = target.received;
    expect(event!.verified).toBe(true);
    expect(event!.body).toMatchObject({
      type: 'budget.threshold_reached',
      account_id: o.customer.accountId,
      data: { subscription_id: o.subscriptionId },
    });
    expect(String(event!.body.data.title)).toMatch(/budget/i);
  });
});

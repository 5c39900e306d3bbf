import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_LIMITS, API_TOKEN_MESSAGES, WEBHOOK_LIMITS, WEBHOOK_MESSAGES } from '@kumo/contract';
import { signedUpOwner } from '../../../test/support/account-people.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, get, post, startTestApp, type TestContext, type Tokens } from '../../../test/support/harness.js';
import { startReceiver, type Receiver } from '../../../test/support/webhook-receiver.js';

/**
 * The limits around webhooks and tokens hold whatever arrives at once and whichever process answers: endpoints and
 * tokens per account are counted in the transaction that writes, test events in the shared rate-limit store; and an
 * endpoint's address is checked for https and public reach again when a delivery is sent.
 */
const kinds = await databaseKinds();

describe.each(kinds)('webhook and token guards on %s', (kind) => {
  let ctx: TestContext;
  /** A second portal on the same database, with its own process state, as a second server would be. */
  let other: TestContext;
  /** A portal on the same database that refuses private addresses and plain http, as production does. */
  let strict: TestContext;
  let owner: Tokens;

  const newOwner = async () => (await signedUpOwner(ctx, `guards.${randomUUID().slice(0, 8)}@example.com`, 'Gia Guard')).tokens;
  const createWebhook = (jwt: string, url = 'https://hooks.example.com/kumo', app = ctx) =>
    post(app, '/api/account/webhooks', { url, events: ['top_up.failed'] }, jwt);

  beforeAll(async () => {
    ctx = await startTestApp(kind, { webhookAllowPrivate: true });
    other = await startTestApp(kind, { webhookAllowPrivate: true, sameDatabaseAs: ctx });
    strict = await startTestApp(kind, { sameDatabaseAs: ctx });
    owner = await newOwner();
  });
  afterAll(async () => {
    await strict?.close();
    await other?.close();
    await ctx?.close();
  });

  it('stores exactly the limit of endpoints when 20 are created at once, and refuses the rest with the contract error', async () => {
    const jwt = (await newOwner()).jwt;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => createWebhook(jwt, undefined, i % 2 ? other : ctx)));
    const created = answers.filter((answer) => answer.statusCode === 200);
    expect(created).toHaveLength(WEBHOOK_LIMITS.maxPerAccount);
    for (const refused of answers.filter((answer) => answer.statusCode !== 200)) {
      expect([refused.statusCode, errorCode(refused), errorMessage(refused)]).toEqual([422, 'VALIDATION_FAILED', WEBHOOK_MESSAGES.tooMany]);
    }
    expect((await get(ctx, '/api/account/webhooks', jwt)).json()).toHaveLength(WEBHOOK_LIMITS.maxPerAccount);
  });

  it("stores exactly a person's limit of API tokens when more are created at once", async () => {
    const jwt = (await newOwner()).jwt;
    const extra = 10;
    const body = { name: 'burst', scope: 'READ', expires_in_days: 7, allowed_ips: [] };
    const answers = await Promise.all(
      Array.from({ length: API_TOKEN_LIMITS.maxPerPerson + extra }, (_, i) => post(i % 2 ? other : ctx, '/api/user/api-tokens', body, jwt)),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(API_TOKEN_LIMITS.maxPerPerson);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused).toHaveLength(extra);
    for (const answer of refused)
      expect([answer.statusCode, errorCode(answer), errorMessage(answer)]).toEqual([
        422,
        'VALIDATION_FAILED',
        API_TOKEN_MESSAGES.tooManyTokens,
      ]);
    expect((await get(ctx, '/api/user/api-tokens', jwt)).json()).toHaveLength(API_TOKEN_LIMITS.maxPerPerson);
  });

  it('sends an endpoint at most the limit of test events a minute, counted across portals, then 429 with Retry-After', async () => {
    const first = (await createWebhook(owner.jwt)).json().webhook_id as string;
    const second = (await createWebhook(owner.jwt)).json().webhook_id as string;
    const test = (id: string, app: TestContext) => post(app, `/api/account/webhooks/${id}/test`, {}, owner.jwt);
    for (let i = 0; i < WEBHOOK_LIMITS.testEventsPerMinute; i++) {
      const sent = await test(first, i % 2 ? other : ctx);
      expect(sent.statusCode, sent.body).toBe(200);
    }
    for (const app of [ctx, other]) {
      const limited = await test(first, app);
      expect([limited.statusCode, errorCode(limited)]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another endpoint has a count of its own; the first is free again once its minute is over.
    expect((await test(second, ctx)).statusCode).toBe(200);
    for (const app of [ctx, other]) app.clock.advance(61_000);
    expect((await test(first, other)).statusCode).toBe(200);
  });

  it('refuses IPv4-translated and Teredo addresses when an endpoint is saved', async () => {
    for (const url of [
      'https://[::ffff:0:7f00:1]/hook',
      'https://[::ffff:0:a9fe:a9fe]/hook',
      'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
    ]) {
      const refused = await createWebhook(owner.jwt, url, strict);
      expect([url, refused.statusCode, refused.json().field_errors?.url], refused.body).toEqual([url, 400, WEBHOOK_MESSAGES.urlPrivate]);
    }
  });

  it('sends nothing to an http:// endpoint from a portal that requires https, checked again at delivery', async () => {
    let receiver: Receiver | undefined;
    try {
      receiver = await startReceiver();
      // Saved where plain http is allowed, then sent by a portal that requires https: refused before a byte leaves.
      const saved = await createWebhook(owner.jwt, receiver.url);
      expect(saved.statusCode, saved.body).toBe(200);
      const webhookId = saved.json().webhook_id as string;
      strict.clock.set(ctx.clock.now());
      expect((await post(ctx, `/api/account/webhooks/${webhookId}/test`, {}, owner.jwt)).statusCode).toBe(200);
      await strict.services.webhooks.sweep();
      expect(receiver.received).toHaveLength(0);
      const { rows } = await ctx.database.db.execute(sql`
        select a.error from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.webhook_id = ${webhookId}`);
      expect(rows).toEqual([{ error: WEBHOOK_MESSAGES.urlNotHttps }]);
    } finally {
      await receiver?.close();
    }
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../test/support/databases.js';
import { createSubscription } from '../../test/support/checkout.js';
import { CLUSTER_TEST_APP, clusterBody } from '../../test/support/clusters.js';
import { errorCode, errorMessage, get, logIn, send, signUp, startTestApp, type TestContext } from '../../test/support/harness.js';

const kinds = await databaseKinds();
const CONCURRENT = 20;

describe.each(kinds)('Idempotency-Key on the writes that create or charge, on %s', (kind) => {
  let ctx: TestContext;
  let jwt: string;
  let subscriptionId: string;
  let counter = 0;
  const freshKey = () => `key-${kind}-${++counter}-${Date.now()}`;
  const withKey = (url: string, body: unknown, key: string, token = jwt) => send(ctx, 'POST', url, body, token, { 'idempotency-key': key });
  const countRows = async (query: ReturnType<typeof sql>) => Number((await ctx.database.db.execute<{ n: number }>(query)).rows[0]!.n);

  beforeAll(async () => {
    ctx = await startTestApp(kind, { ...CLUSTER_TEST_APP, webhookAllowPrivate: true });
    jwt = (await signUp(ctx, `idempotency.${kind}@example.com`, 'Ida Idem')).jwt;
    subscriptionId = await createSubscription(ctx, jwt, 'Retries');
  });
  afterAll(() => ctx.close());

  /** Sends one request CONCURRENT times at once with one key: every answer is the first one, replayed. */
  async function concurrently(url: string, body: unknown) {
    const key = freshKey();
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => withKey(url, body, key)));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(CONCURRENT - 1);
    return answers[0]!.json();
  }

  it('creates one cluster, one webhook and one checkout for 20 concurrent requests with one key each', async () => {
    const cluster = await concurrently('/api/cluster/create', clusterBody(subscriptionId, { cluster_name: 'Once_Only' }));
    expect(await countRows(sql`select count(*)::int as n from clusters where subscription_id = ${subscriptionId}`)).toBe(1);
    expect(cluster.deployment_id).toBeDefined();

    const webhook = await concurrently('/api/account/webhooks', { url: 'https://hooks.example.com/once', events: ['top_up.failed'] });
    const webhooks = (await get(ctx, '/api/account/webhooks', jwt)).json();
    expect(webhooks).toHaveLength(1);
    expect(webhooks[0].webhook_id).toBe(webhook.webhook_id);

    const purchase = {
      amount: 25,
      event_name: 'ADD_FUNDS',
      remark: '',
      iso_currency_code: 'USD',
      subscription_id: subscriptionId,
      category: 'PURCHASED',
    };
    await concurrently('/api/credit/purchase', purchase);
    expect(await countRows(sql`select count(*)::int as n from purchases where subscription_id = ${subscriptionId}`)).toBe(1);
  });

  it('answers the first answer again, errors included, and does the work once', async () => {
    const key = freshKey();
    const body = { subscription_name: 'Kept', remark: '', subscription_type: 'PREPAID' };
    const first = await withKey('/api/subscription/create', body, key);
    const again = await withKey('/api/subscription/create', { subscription_type: 'PREPAID', remark: '', subscription_name: 'Kept' }, key);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    // A refusal after the work started is an answer too: 409 for the name taken, replayed as it was.
    const takenKey = freshKey();
    const taken = await withKey('/api/subscription/create', body, takenKey);
    expect([taken.statusCode, errorCode(taken)]).toEqual([409, 'SUBSCRIPTION_NAME_TAKEN']);
    expect((await withKey('/api/subscription/create', body, takenKey)).body).toBe(taken.body);
  });

  it('refuses the same key with another body with 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = freshKey();
    expect(
      (await withKey('/api/subscription/create', { subscription_name: 'First body', subscription_type: 'PREPAID' }, key)).statusCode,
    ).toBe(200);
    const other = await withKey('/api/subscription/create', { subscription_name: 'Second body', subscription_type: 'PREPAID' }, key);
    expect([other.statusCode, errorCode(other), errorMessage(other)]).toEqual([
      409,
      'IDEMPOTENCY_KEY_REUSED',
      MESSAGES.idempotencyKeyOtherRequest,
    ]);
    const elsewhere = await withKey('/api/account/webhooks', { url: 'https://hooks.example.com/other', events: ['top_up.failed'] }, key);
    expect(errorCode(elsewhere)).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it("scopes keys to the caller's account", async () => {
    const key = freshKey();
    const other = (await signUp(ctx, `idempotency.other.${kind}@example.com`, 'Otto Other')).jwt;
    const body = { subscription_name: 'Same key', subscription_type: 'PREPAID' };
    const mine = await withKey('/api/subscription/create', body, key);
    const theirs = await withKey('/api/subscription/create', body, key, other);
    expect([mine.statusCode, theirs.statusCode]).toEqual([200, 200]);
    expect(theirs.json().subscription_id).not.toBe(mine.json().subscription_id);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a key that is empty, too long or not printable, with the header named', async () => {
    for (const key of ['x'.repeat(256), ' leading-space', 'tab\there']) {
      const refused = await withKey('/api/subscription/create', { subscription_name: 'Bad key', subscription_type: 'PREPAID' }, key);
      expect([refused.statusCode, refused.json().field_errors]).toEqual([400, { 'idempotency-key': MESSAGES.idempotencyKeyInvalid }]);
    }
    expect(
      (await withKey('/api/subscription/create', { subscription_name: 'Long key', subscription_type: 'PREPAID' }, 'k'.repeat(255)))
        .statusCode,
    ).toBe(200);
  });

  // Last: it moves the clock a day on.
  it('forgets a key after 24 hours: the purge removes it and the key can be used again', async () => {
    const key = freshKey();
    const body = { subscription_name: 'Yesterday', subscription_type: 'PREPAID' };
    const first = await withKey('/api/subscription/create', body, key);
    ctx.clock.advance(24 * 60 * 60_000 + 1);
    await ctx.services.idempotency.sweep();
    expect(await countRows(sql`select count(*)::int as n from idempotency_keys where key = ${key}`)).toBe(0);
    // A day on, the access token has long expired: sign in again.
    const today = (await logIn(ctx, `idempotency.${kind}@example.com`)).jwt;
    const later = await withKey('/api/subscription/create', { subscription_name: 'Today', subscription_type: 'PREPAID' }, key, today);
    expect(later.statusCode).toBe(200);
    expect(later.json().subscription_id).not.toBe(first.json().subscription_id);
  });
});

import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES, type Webhook } from '@kumo/contract';
import { HOUR, MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { CLUSTER_TEST_APP, clusterSteps } from '../../../test/support/clusters.js';
import {
  errorCode,
  errorMessage,
  get,
  logIn,
  post,
  send,
  startTestApp,
  tokensOf,
  type TestContext,
} from '../../../test/support/harness.js';
import { startReceiver, verifySignature, type Receiver } from '../../../test/support/webhook-receiver.js';

const kinds = await databaseKinds();

describe.each(kinds)('webhooks on %s', (kind) => {
  let ctx: TestContext;
  /** A second portal on the same database that refuses private addresses, as production does. */
  let strict: TestContext;
  const steps = clusterSteps(() => ctx);
  let owner: { email: string; jwt: string; subscriptionId: string };
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    ctx = await startTestApp(kind, { ...CLUSTER_TEST_APP, webhookAllowPrivate: true });
    strict = await startTestApp(kind, { ...CLUSTER_TEST_APP, sameDatabaseAs: ctx });
    owner = await steps.customer();
  });
  afterAll(async () => {
    await strict.close();
    await ctx.close();
  });
  // Tests move the clock by up to a day: a fresh session once the last one has run out, and the strict portal's clock
  // kept with ours.
  let signedInAt = 0;
  beforeEach(async () => {
    if (ctx.clock.now().getTime() - signedInAt > 10 * MINUTE) {
      owner.jwt = (await logIn(ctx, owner.email)).jwt;
      signedInAt = ctx.clock.now().getTime();
    }
    strict.clock.set(ctx.clock.now());
  });
  afterEach(async () => {
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  async function receiver(): Promise<Receiver> {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  }

  /** An endpoint for `events` pointing at a fresh receiver that knows its secret. */
  async function endpoint(events: string[], jwt = owner.jwt) {
    const target = await receiver();
    const response = await post(ctx, '/api/account/webhooks', { url: target.url, events }, jwt);
    expect(response.statusCode, response.body).toBe(200);
    const created = response.json<{ webhook_id: string; secret: string }>();
    target.secret = created.secret;
    return { ...created, receiver: target };
  }

  const listed = async (id: string, jwt = owner.jwt) =>
    (await get(ctx, '/api/account/webhooks', jwt)).json<Webhook[]>().find((webhook) => webhook.webhook_id === id)!;

  it('shows the secret once, lists endpoints without it, and deletes them', async () => {
    const { webhook_id, secret } = await endpoint(['cluster.status_changed', 'top_up.failed']);
    expect(secret).toMatch(new RegExp(`^${WEBHOOK_LIMITS.secretPrefix}[0-9a-f]{64}$`));
    const list = await get(ctx, '/api/account/webhooks', owner.jwt);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(secret);
    expect(await listed(webhook_id)).toMatchObject({ events: ['cluster.status_changed', 'top_up.failed'], deliveries: [] });
    // Stored sealed: the secret is in no column as written.
    const stored = await ctx.database.db.execute(`select sealed_secret from webhooks where id = '${webhook_id}'`);
    expect(JSON.stringify(stored.rows)).not.toContain(secret.slice(WEBHOOK_LIMITS.secretPrefix.length));

    expect((await send(ctx, 'DELETE', `/api/account/webhooks/${webhook_id}`, undefined, owner.jwt)).statusCode).toBe(200);
    expect(await listed(webhook_id)).toBeUndefined();
    const again = await send(ctx, 'DELETE', `/api/account/webhooks/${webhook_id}`, undefined, owner.jwt);
    expect([again.statusCode, errorMessage(again)]).toEqual([404, WEBHOOK_MESSAGES.notFound]);
  });

  it('refuses a missing URL, unknown events and an empty list with the field at fault', async () => {
    const cases: [unknown, string][] = [
      [{ events: ['top_up.failed'] }, 'url'],
      [{ url: 'not a url', events: ['top_up.failed'] }, 'url'],
      [{ url: 'https://hooks.example.com/kumo', events: ['cluster.exploded'] }, 'events.0'],
      [{ url: 'https://hooks.example.com/kumo', events: [] }, 'events'],
    ];
    for (const [body, field] of cases) {
      const response = await post(ctx, '/api/account/webhooks', body, owner.jwt);
      expect([response.statusCode, errorCode(response)], response.body).toEqual([400, 'VALIDATION_FAILED']);
      expect(Object.keys(response.json().field_errors ?? {})).toContain(field);
    }
  });

  it('lets only owners and admins manage webhooks, signed in as people: never a member; an API token only lists them', async () => {
    const memberEmail = steps.freshEmail();
    const invited = await post(
      ctx,
      '/api/user/invite',
      { invited_user_id: memberEmail, invited_user_name: 'Mo Member', role: 'CLUSTER_MEMBER', subscription_ids: [owner.subscriptionId] },
      owner.jwt,
    );
    expect(invited.statusCode, invited.body).toBe(200);
    const mail = (await ctx.services.mail.listRecent(20)).find((row) => row.toAddress === memberEmail)!;
    const memberJwt = tokensOf(await post(ctx, '/api/user/invite/accept', { token: mail.textBody.match(/token=([\w-]+)/)![1] })).jwt;
    const body = { url: 'https://hooks.example.com/kumo', events: ['top_up.failed'] };
    expect((await post(ctx, '/api/account/webhooks', body, memberJwt)).statusCode).toBe(403);
    expect((await get(ctx, '/api/account/webhooks', memberJwt)).statusCode).toBe(403);

    const token = (
      await post(ctx, '/api/user/api-tokens', { name: 'ci', scope: 'WRITE', expires_in_days: 7, allowed_ips: [] }, owner.jwt)
    ).json<{ token: string }>().token;
    const headers = { authorization: `Bearer ${token}` };
    const added = await ctx.app.inject({ method: 'POST', url: '/api/account/webhooks', payload: body, headers });
    expect([added.statusCode, errorCode(added)], added.body).toEqual([403, 'TOKEN_NOT_ALLOWED']);
    // A token lists the endpoints, each address cut to its origin: a path may hold a secret of its own.
    await endpoint(['top_up.failed']);
    const listed = await ctx.app.inject({ method: 'GET', url: '/api/account/webhooks', headers });
    expect(listed.statusCode, listed.body).toBe(200);
    const byPerson = (await get(ctx, '/api/account/webhooks', owner.jwt)).json<Webhook[]>();
    expect(byPerson.length).toBeGreaterThan(0);
    expect(listed.json<Webhook[]>()).toEqual(byPerson.map((webhook) => ({ ...webhook, url: `${new URL(webhook.url).origin}/…` })));
  });

  it('signs each delivery so a receiver can verify it, and lists it with its attempt', async () => {
    const { webhook_id, secret, receiver: target } = await endpoint(['top_up.succeeded']);
    const tested = await post(ctx, `/api/account/webhooks/${webhook_id}/test`, {}, owner.jwt);
    expect(tested.statusCode, tested.body).toBe(200);
    await ctx.services.webhooks.sweep();

    expect(target.received).toHaveLength(1);
    const [delivery] = target.received;
    expect(delivery!.verified).toBe(true);
    expect(delivery!.t).toBe(Math.floor(ctx.clock.now().getTime() / 1000));
    expect(delivery!.body).toMatchObject({ id: tested.json().event_id, type: 'webhook.test', data: { webhook_id } });
    expect(delivery!.body.account_id).toMatch(/^[0-9a-f-]{36}$/);
    // A wrong secret does not verify: the check is real.
    target.secret = `${secret}x`;
    expect(verifySignature(target.secret, delivery!.raw, delivery!.signature).verified).toBe(false);
    expect(verifySignature(secret, `${delivery!.raw} `, delivery!.signature).verified).toBe(false);

    const [shown] = (await listed(webhook_id)).deliveries;
    expect(shown).toMatchObject({ event_id: tested.json().event_id, type: 'webhook.test', state: 'DELIVERED', next_attempt_at: null });
    expect(shown!.attempts).toEqual([expect.objectContaining({ status_code: 200, error: null })]);
  });

  it('retries after the receiver fails, with a delay that doubles, and sends the same signed event', async () => {
    const { webhook_id, receiver: target } = await endpoint(['top_up.failed']);
    target.answers.push(503, 503);
    await post(ctx, `/api/account/webhooks/${webhook_id}/test`, {}, owner.jwt);
    await ctx.services.webhooks.sweep();
    let [shown] = (await listed(webhook_id)).deliveries;
    expect(shown).toMatchObject({ state: 'PENDING', attempts: [expect.objectContaining({ status_code: 503 })] });
    const firstDelay = new Date(shown!.next_attempt_at!).getTime() - ctx.clock.now().getTime();
    expect(firstDelay).toBe(WEBHOOK_LIMITS.firstRetryDelaySeconds * 1000);

    // Not before it is due.
    await ctx.services.webhooks.sweep();
    expect(target.received).toHaveLength(1);
    ctx.clock.advance(firstDelay);
    await ctx.services.webhooks.sweep();
    shown = (await listed(webhook_id)).deliveries[0];
    expect(new Date(shown!.next_attempt_at!).getTime() - ctx.clock.now().getTime()).toBe(2 * firstDelay);
    ctx.clock.advance(2 * firstDelay);
    await ctx.services.webhooks.sweep();

    expect(target.received.map((received) => received.verified)).toEqual([true, true, true]);
    expect(new Set(target.received.map((received) => received.raw)).size).toBe(1);
    shown = (await listed(webhook_id)).deliveries[0];
    expect(shown!.state).toBe('DELIVERED');
    expect(shown!.attempts.map((attempt) => attempt.status_code)).toEqual([200, 503, 503]);
  });

  it('gives a delivery up a day after its event, having kept trying until then', async () => {
    const { webhook_id, receiver: target } = await endpoint(['top_up.failed']);
    target.answers.push(...Array<number>(200).fill(500));
    await post(ctx, `/api/account/webhooks/${webhook_id}/test`, {}, owner.jwt);
    const queuedAt = ctx.clock.now().getTime();
    // A day of the clock passes here, far past a session: the delivery is read from its row while it is retried.
    const deliveryRow = async () =>
      (
        await ctx.database.db.execute<{ state: string; next_attempt_at: string | Date | null }>(
          sql`select state, next_attempt_at from webhook_deliveries where webhook_id = ${webhook_id}`,
        )
      ).rows[0]!;
    for (let round = 0; round < 100; round++) {
      await ctx.services.webhooks.sweep();
      const row = await deliveryRow();
      if (row.state !== 'PENDING') break;
      ctx.clock.set(new Date(row.next_attempt_at!));
    }
    owner.jwt = (await logIn(ctx, owner.email)).jwt;
    signedInAt = ctx.clock.now().getTime();
    const [shown] = (await listed(webhook_id)).deliveries;
    expect(shown!.state).toBe('FAILED');
    expect(shown!.next_attempt_at).toBeNull();
    const last = new Date(shown!.attempts[0]!.at).getTime();
    expect(last - queuedAt).toBeLessThanOrEqual(WEBHOOK_LIMITS.retryForHours * HOUR);
    expect(last - queuedAt).toBeGreaterThan((WEBHOOK_LIMITS.retryForHours - 1) * HOUR);
    expect(target.received.length).toBeGreaterThan(20);
  });

  it('refuses private, loopback and link-local addresses and plain http, at creation and again at delivery', async () => {
    const refusals: [string, string][] = [
      ['https://127.0.0.1/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['https://localhost/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['https://[::1]/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['https://169.254.169.254/latest/meta-data', WEBHOOK_MESSAGES.urlPrivate],
      ['https://10.1.2.3/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['https://172.20.0.1/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['https://192.168.1.10/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['https://0.0.0.0/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['https://[fd12:3456::1]/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['https://[fe80::1]/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['https://[::ffff:127.0.0.1]/hook', WEBHOOK_MESSAGES.urlPrivate],
      ['http://203.0.113.10/hook', WEBHOOK_MESSAGES.urlNotHttps],
    ];
    // The same database and server secret: the owner's session is good on both portals.
    const jwt = owner.jwt;
    for (const [url, message] of refusals) {
      const response = await post(strict, '/api/account/webhooks', { url, events: ['top_up.failed'] }, jwt);
      expect([url, response.statusCode, response.json().field_errors?.url], response.body).toEqual([url, 400, message]);
    }
    // Saved where private addresses are allowed, then sent by a portal that refuses them (a name that now resolves to
    // a private address): the attempt is refused at the address lookup, before a byte leaves, and recorded.
    const target = await receiver();
    const saved = await post(
      ctx,
      '/api/account/webhooks',
      { url: target.url.replace('http://127.0.0.1', 'https://localhost'), events: ['top_up.failed'] },
      owner.jwt,
    );
    const webhookId = saved.json().webhook_id as string;
    await post(ctx, `/api/account/webhooks/${webhookId}/test`, {}, owner.jwt);
    await strict.services.webhooks.sweep();
    expect(target.received).toHaveLength(0);
    const [shown] = (await listed(webhookId)).deliveries;
    expect(shown).toMatchObject({
      state: 'PENDING',
      attempts: [expect.objectContaining({ status_code: null, error: WEBHOOK_MESSAGES.urlPrivate })],
    });
  });

  it("sends a cluster's status changes and the end of its deployment, from the clusters' own records", async () => {
    const { receiver: target } = await endpoint(['cluster.status_changed', 'deployment.completed']);
    const clusterId = await steps.deployOnline(owner.jwt, owner.subscriptionId, { cluster_name: `hooked-${Date.now() % 100000}` });
    await ctx.services.webhooks.sweep();
    const events = target.received.filter((received) => received.body.data.cluster_id === clusterId);
    expect(events.every((received) => received.verified)).toBe(true);
    expect(events.map((received) => `${received.body.type} ${String(received.body.data.status)}`).sort()).toEqual([
      'cluster.status_changed DEPLOYING',
      'cluster.status_changed ONLINE',
      'deployment.completed ONLINE',
    ]);
    expect(new Set(events.map((received) => received.body.id)).size).toBe(3);
    expect(events.every((received) => received.body.data.subscription_id === owner.subscriptionId)).toBe(true);

    const stopped = await get(ctx, `/api/cluster/stop/${clusterId}`, owner.jwt);
    expect(stopped.statusCode, stopped.body).toBe(200);
    await ctx.services.webhooks.sweep();
    expect(target.received.at(-1)!.body).toMatchObject({
      type: 'cluster.status_changed',
      data: { cluster_id: clusterId, status: 'STOPPING' },
    });
  });
});

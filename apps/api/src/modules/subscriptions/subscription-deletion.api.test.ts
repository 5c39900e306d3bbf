import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, subscriptionHasClustersMessage, subscriptionHasFundsMessage } from '@kumo/contract';
import { eq, like, sql } from 'drizzle-orm';
import { ledgerEntries, subscriptions as subscriptionsTable } from '../../db/schema.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, errorMessage, get, post, send, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { createSubscription, history } from '../../../test/support/checkout.js';

const kinds = await databaseKinds();
let counter = 0;
const freshEmail = () => `subs${++counter}.${Date.now()}@example.com`;

describe.each(kinds)('deleting subscriptions on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  it('refuses to delete a subscription holding paid funds unless they move to another subscription of the account', async () => {
    const { jwt } = await signUp(ctx, freshEmail());
    const first = await createSubscription(ctx, jwt, 'Funded');
    const second = await createSubscription(ctx, jwt, 'Receiver');
    await ctx.services.ledger.postPurchase({ subscriptionId: first, amountCents: 12_345, idempotencyKey: `test-purchase:${first}` });
    const remove = (query = '', token = jwt) => send(ctx, 'DELETE', `/api/subscription/delete/${first}${query}`, undefined, token);

    const refused = await remove();
    expect(refused.statusCode).toBe(422);
    expect(errorCode(refused)).toBe('SUBSCRIPTION_HAS_FUNDS');
    expect(errorMessage(refused)).toBe(subscriptionHasFundsMessage(12_345));
    expect(errorMessage(refused)).toContain('$123.45');

    // Another account's subscription is unknown here; the subscription itself cannot be the target.
    const stranger = await signUp(ctx, freshEmail());
    const theirs = await createSubscription(ctx, stranger.jwt, 'Theirs');
    expect((await remove(`?transfer_to=${theirs}`)).statusCode).toBe(404);
    expect(errorCode(await remove(`?transfer_to=${first}`))).toBe('TRANSFER_TARGET_INVALID');
    expect((await remove('?transfer_to=nope')).statusCode).toBe(400);
    expect((await get(ctx, '/api/subscription/list', jwt)).json()).toHaveLength(2);
    // The stranger's subscription keeps exactly its own sign-up credits.
    expect((await get(ctx, '/api/subscription/list', stranger.jwt)).json()[0].balance).toBe(500);

    const moved = await remove(`?transfer_to=${second}`);
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({ message: MESSAGES.subscriptionFundsTransferred, transferred_amount: 123.45 });
    const [left] = (await get(ctx, '/api/subscription/list', jwt)).json();
    expect(left).toMatchObject({ subscription_id: second, balance: 123.45, credits: 0 });
    expect((await history(ctx, jwt, second)).content[0]).toMatchObject({ category: 'TRANSFER_IN', type: 'CREDIT', amount: 123.45 });

    // Both entries, one out and one in, under the deletion's key; the free credits stayed behind.
    const entries = await ctx.database.db
      .select({ subscriptionId: ledgerEntries.subscriptionId, amountCents: ledgerEntries.amountCents, kind: ledgerEntries.kind })
      .from(ledgerEntries)
      .where(like(ledgerEntries.idempotencyKey, `subscription-delete:${first}%`));
    expect(entries.sort((a, b) => a.amountCents - b.amountCents)).toEqual([
      { subscriptionId: first, amountCents: -12_345, kind: 'TRANSFER_OUT' },
      { subscriptionId: second, amountCents: 12_345, kind: 'TRANSFER_IN' },
    ]);
    const [deletedRow] = await ctx.database.db
      .select({ balanceCents: subscriptionsTable.balanceCents, status: subscriptionsTable.status })
      .from(subscriptionsTable)
      .where(eq(subscriptionsTable.id, first));
    expect(deletedRow).toEqual({ balanceCents: 50_000, status: 'DELETED' });
  });

  it('moves the same funds once when a transfer is retried', async () => {
    const { jwt } = await signUp(ctx, freshEmail());
    const from = await createSubscription(ctx, jwt, 'Twice');
    const to = await createSubscription(ctx, jwt, 'Target');
    await ctx.services.ledger.postPurchase({ subscriptionId: from, amountCents: 5_000, idempotencyKey: `test-purchase:${from}` });
    const key = `subscription-delete:${from}`;
    const transfer = { fromSubscriptionId: from, toSubscriptionId: to, idempotencyKey: key };
    expect(await ctx.services.ledger.transferPaidFunds(transfer)).toEqual({ amountCents: 5_000, duplicate: false });
    expect(await ctx.services.ledger.transferPaidFunds(transfer)).toEqual({ amountCents: 5_000, duplicate: true });
    const [target] = (await get(ctx, '/api/subscription/list', jwt))
      .json()
      .filter((row: { subscription_id: string }) => row.subscription_id === to);
    expect(target.balance).toBe(50);
  });

  it('deletes a subscription without clusters and refuses one with clusters', async () => {
    const { jwt } = await signUp(ctx, freshEmail());
    const busy = await createSubscription(ctx, jwt, 'Busy one');
    const idle = await createSubscription(ctx, jwt, 'Idle one');
    await ctx.services.subscriptions.adjustActiveClusterCount(busy, 1);

    const refused = await send(ctx, 'DELETE', `/api/subscription/delete/${busy}`, undefined, jwt);
    expect(refused.statusCode).toBe(422);
    expect(errorCode(refused)).toBe('SUBSCRIPTION_HAS_CLUSTERS');
    expect(errorMessage(refused)).toBe(MESSAGES.subscriptionHasClusters);
    expect((await get(ctx, `/api/subscription/details?subscription_id=${busy}`, jwt)).json().active_cluster_count).toBe(1);

    const deleted = await send(ctx, 'DELETE', `/api/subscription/delete/${idle}`, undefined, jwt);
    expect(deleted.json()).toEqual({ message: MESSAGES.subscriptionDeleted, transferred_amount: 0 });
    expect((await get(ctx, `/api/subscription/details?subscription_id=${idle}`, jwt)).statusCode).toBe(404);
    expect((await send(ctx, 'DELETE', `/api/subscription/delete/${idle}`, undefined, jwt)).statusCode).toBe(404);

    await ctx.services.subscriptions.adjustActiveClusterCount(busy, -1);
    await expect(ctx.services.subscriptions.adjustActiveClusterCount(busy, -1)).rejects.toThrow();
    expect((await send(ctx, 'DELETE', `/api/subscription/delete/${busy}`, undefined, jwt)).statusCode).toBe(200);
    // A deleted name is free again.
    expect(await createSubscription(ctx, jwt, 'Busy one')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses to delete a subscription with clusters that are not deleted, naming them and listing their ids', async () => {
    const { jwt } = await signUp(ctx, freshEmail());
    const subscriptionId = await createSubscription(ctx, jwt, 'Clustered');
    const deploy = async (name: string, cidr: string) => {
      const response = await post(
        ctx,
        '/api/cluster/create',
        {
          subscription_id: subscriptionId,
          cluster_name: name,
          description: '',
          cloud_provider: 'AWS',
          enable_dr_flag: false,
          cidr,
          region: 'us-east-1',
          backup_region: null,
          password: 'Sup3r#Secret-pw',
          kumo_version: '2026.10.1',
        },
        jwt,
      );
      expect(response.statusCode, response.body).toBe(200);
      return String(response.json().deployment_id);
    };
    const alpha = await deploy('Alpha', '10.1.0.0/16');
    ctx.clock.advance(60_000);
    const beta = await deploy('Beta', '10.2.0.0/16');

    const refused = await send(ctx, 'DELETE', `/api/subscription/delete/${subscriptionId}`, undefined, jwt);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      errorDetails: {
        error_code: 'SUBSCRIPTION_HAS_CLUSTERS',
        error_message: 'This subscription still has 2 clusters: Alpha, Beta. Delete them before deleting the subscription.',
        request_id: expect.any(String),
      },
      clusters: [
        { deployment_id: alpha, cluster_name: 'Alpha' },
        { deployment_id: beta, cluster_name: 'Beta' },
      ],
    });
    expect(subscriptionHasClustersMessage(['Alpha'])).toBe(
      'This subscription still has a cluster: Alpha. Delete it before deleting the subscription.',
    );

    // One cluster gone (as its deletion ends): only the other one is named.
    await ctx.database.db.execute(sql`update clusters set status = 'DELETED', deleted_at = ${ctx.clock.now()} where id = ${alpha}`);
    await ctx.services.subscriptions.adjustActiveClusterCount(subscriptionId, -1);
    const still = await send(ctx, 'DELETE', `/api/subscription/delete/${subscriptionId}`, undefined, jwt);
    expect(still.json().clusters).toEqual([{ deployment_id: beta, cluster_name: 'Beta' }]);
    expect(errorMessage(still)).toBe(subscriptionHasClustersMessage(['Beta']));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { databaseKinds } from '../../../test/support/databases.js';
import { createSubscription } from '../../../test/support/checkout.js';
import { errorCode, post, send, signUp, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { rows } from '../../../test/support/metering.js';

const kinds = await databaseKinds();
let counter = 0;
const freshEmail = () => `race${++counter}.${Date.now()}@example.com`;

const ROUNDS = 12;
const CREATES_PER_ROUND = 8;

/**
 * Cluster creation against subscription deletion: whatever the interleaving, a subscription is either still there
 * (its deletion refused because of the clusters created first) or deleted with no live cluster left in it.
 */
describe.each(kinds)('creating clusters while their subscription is deleted on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  const order = (subscriptionId: string, i: number) => ({
    subscription_id: subscriptionId,
    cluster_name: `Race_${i}`,
    description: '',
    cloud_provider: 'AWS',
    enable_dr_flag: false,
    cidr: `10.${i}.0.0/16`,
    region: 'us-east-1',
    backup_region: null,
    password: 'Sup3r#Secret-pw',
    kumo_version: '2026.10.1',
  });

  it(`never leaves a live cluster in a deleted subscription (${ROUNDS} rounds of ${CREATES_PER_ROUND} creates against a delete)`, async () => {
    const outcomes = { refused: 0, deleted: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const { jwt } = await signUp(ctx, freshEmail());
      const subscriptionId = await createSubscription(ctx, jwt, 'Racing');
      const creates = Array.from({ length: CREATES_PER_ROUND }, (_, i) => post(ctx, '/api/cluster/create', order(subscriptionId, i), jwt));
      // The delete starts a little after the first creates, so it lands between their checks and their writes.
      const deletion = new Promise((resolve) => setTimeout(resolve, (round % 6) * 2)).then(() =>
        send(ctx, 'DELETE', `/api/subscription/delete/${subscriptionId}`, undefined, jwt),
      );
      const [deleted, ...created] = await Promise.all([deletion, ...creates]);

      // Every answer is a clear one: a cluster created, or the subscription gone; a deletion done, or refused.
      for (const response of created) {
        expect([200, 404], response.body).toContain(response.statusCode);
      }
      expect([200, 422], deleted.body).toContain(deleted.statusCode);

      const [subscription] = await rows<{ deleted: boolean }>(
        ctx,
        sql`select deleted_at is not null as deleted from subscriptions where id = ${subscriptionId}`,
      );
      const live = await rows<{ id: string }>(
        ctx,
        sql`select id from clusters where subscription_id = ${subscriptionId} and deleted_at is null`,
      );
      const createdCount = created.filter((response) => response.statusCode === 200).length;
      if (deleted.statusCode === 200) {
        outcomes.deleted++;
        expect(subscription!.deleted).toBe(true);
        expect(live, `round ${round}: clusters created in the deleted subscription`).toHaveLength(0);
        expect(createdCount).toBe(0);
      } else {
        outcomes.refused++;
        expect(errorCode(deleted)).toBe('SUBSCRIPTION_HAS_CLUSTERS');
        expect(subscription!.deleted).toBe(false);
        expect(live).toHaveLength(createdCount);
        expect(createdCount).toBeGreaterThan(0);
      }
    }
    expect(outcomes.refused + outcomes.deleted).toBe(ROUNDS);
  });
});

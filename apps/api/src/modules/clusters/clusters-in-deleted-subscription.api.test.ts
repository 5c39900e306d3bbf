import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription, type Customer } from '../../../test/support/money.js';
import { clusterEvent, newMeteredCluster, rows } from '../../../test/support/metering.js';

const kinds = await databaseKinds();
/** PostgreSQL's restrict_violation, raised by the trigger of migration 0011. */
const RESTRICT_VIOLATION = '23001';

/** The database itself refuses a live (not deleted) cluster in a deleted subscription, from either side. */
describe.each(kinds)('no live cluster in a deleted subscription, enforced by the database on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  const deleteSubscription = (id: string) =>
    ctx.database.db.execute(sql`update subscriptions set deleted_at = ${ctx.clock.now()}, status = 'DELETED' where id = ${id}`);

  /** The SQLSTATE a statement failed with (drizzle wraps the driver's error), or 'ok'. */
  async function outcome(statement: Promise<unknown>): Promise<string> {
    try {
      await statement;
      return 'ok';
    } catch (error) {
      const cause = (error as { cause?: { code?: string }; code?: string }).cause ?? error;
      return (cause as { code?: string }).code ?? String(error);
    }
  }

  async function deletedSubscription(customer: Customer): Promise<string> {
    const id = await newSubscription(ctx, customer, `Gone ${randomUUID().slice(0, 6)}`);
    expect(await outcome(deleteSubscription(id))).toBe('ok');
    return id;
  }

  it('refuses a raw insert of a live cluster into a deleted subscription, and allows a deleted one', async () => {
    const customer = await newCustomer(ctx);
    const gone = await deletedSubscription(customer);
    expect(await outcome(newMeteredCluster(ctx, customer, gone))).toBe(RESTRICT_VIOLATION);
    expect(await rows(ctx, sql`select id from clusters where subscription_id = ${gone}`)).toHaveLength(0);
    // A deleted cluster may still name it: nothing of it runs.
    const id = randomUUID();
    const now = ctx.clock.now();
    const deletedOne = ctx.database.db.execute(sql`
      insert into clusters (id, account_id, subscription_id, name, cloud_provider, region, cidr, kumo_version, stack_name,
                            status, status_updated_at, created_by_user_id, created_at, deleted_at)
      values (${id}, ${customer.accountId}, ${gone}, 'Old', 'AWS', 'us-east-1', '10.0.0.0/16', '1.4.0', ${`kumo-${id}`},
              'DELETED', ${now}, ${customer.userId}, ${now}, ${now})`);
    expect(await outcome(deletedOne)).toBe('ok');
  });

  it('refuses moving a live cluster into a deleted subscription, and bringing a deleted one back in it', async () => {
    const customer = await newCustomer(ctx);
    const live = await newSubscription(ctx, customer, 'Live');
    const gone = await newSubscription(ctx, customer, 'Leaving');
    const leftBehind = await newMeteredCluster(ctx, customer, gone, { name: 'Left' });
    await clusterEvent(ctx, leftBehind, 'CLUSTER_DELETED', 'DELETED');
    expect(await outcome(deleteSubscription(gone))).toBe('ok');
    const moving = await newMeteredCluster(ctx, customer, live, { name: 'Mover' });

    expect(await outcome(ctx.database.db.execute(sql`update clusters set subscription_id = ${gone} where id = ${moving}`))).toBe(
      RESTRICT_VIOLATION,
    );
    expect(await outcome(ctx.database.db.execute(sql`update clusters set deleted_at = null where id = ${leftBehind}`))).toBe(
      RESTRICT_VIOLATION,
    );
    // Other changes of a cluster are not checked against its subscription: stopping, deleting.
    expect(await outcome(ctx.database.db.execute(sql`update clusters set status = 'OFFLINE' where id = ${moving}`))).toBe('ok');
  });

  it('refuses deleting (soft or hard) a subscription that still has a live cluster, and allows it once that is deleted', async () => {
    const customer = await newCustomer(ctx);
    const busy = await newSubscription(ctx, customer, 'Busy');
    const cluster = await newMeteredCluster(ctx, customer, busy, { status: 'FAILED' });

    expect(await outcome(deleteSubscription(busy))).toBe(RESTRICT_VIOLATION);
    expect(await outcome(ctx.database.db.execute(sql`delete from subscriptions where id = ${busy}`))).toBe(RESTRICT_VIOLATION);
    const [still] = await rows<{ deleted: boolean }>(
      ctx,
      sql`select deleted_at is not null as deleted from subscriptions where id = ${busy}`,
    );
    expect(still!.deleted).toBe(false);

    await clusterEvent(ctx, cluster, 'CLUSTER_DELETED', 'DELETED');
    expect(await outcome(deleteSubscription(busy))).toBe('ok');
  });
});

import { asc, eq, sql } from 'drizzle-orm';
import { AUDIT_EVENTS, CLUSTER_STATUSES, type AuditEvent, type ClusterStatus } from '@kumo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { clusterEvent, newMeteredCluster, rows } from '../../../test/support/metering.js';
import { newCustomer, newSubscription } from '../../../test/support/money.js';
import { clusterDirectory, clusterUsageChanges, type ClusterUsage } from './index.js';

const kinds = await databaseKinds();

/** What each audit event says of a cluster's usage from then on; null: nothing (the event is not in the read model). */
const EVENT_USAGE: Record<AuditEvent, { usage: ClusterUsage; deleted: boolean } | null> = {
  CLUSTER_CREATE_REQUESTED: null,
  CLUSTER_RESOURCES_CREATED: { usage: 'running', deleted: false },
  CLUSTER_DEPLOYED: { usage: 'running', deleted: false },
  CLUSTER_DEPLOYMENT_FAILED: { usage: 'none', deleted: false },
  CLUSTER_START_REQUESTED: { usage: 'running', deleted: false },
  CLUSTER_START_REFUSED: null,
  CLUSTER_STARTED: { usage: 'running', deleted: false },
  CLUSTER_STOP_REQUESTED: null,
  CLUSTER_STOPPED: { usage: 'stopped', deleted: false },
  CLUSTER_DELETE_REQUESTED: null,
  CLUSTER_DELETE_APPROVED: null,
  CLUSTER_DELETED: { usage: 'none', deleted: true },
  CLUSTER_SCHEDULE_CHANGED: null,
  CLUSTER_MANAGER_ACCESS_CHANGED: null,
  CLUSTER_MANAGER_OPENED: null,
  CLUSTER_PASSWORD_RESET: null,
  CLUSTER_RESIZE_REQUESTED: null,
  CLUSTER_RESIZED: { usage: 'running', deleted: false },
  CLUSTER_NETWORK_ACCESS_CHANGED: null,
};

/** What a cluster uses now, by its status (while it is not deleted). */
const STATUS_USAGE: Record<ClusterStatus, ClusterUsage> = {
  DEPLOYING: 'none',
  ONLINE: 'running',
  OFFLINE: 'stopped',
  FAILED: 'none',
  STARTING: 'running',
  STOPPING: 'running',
  DELETING: 'stopped',
  DELETE_IN_PROGRESS: 'stopped',
  DELETED_PARTIALLY: 'none',
  DELETED: 'none',
};

describe.each(kinds)("the clusters' usage read model on %s", (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  it('lists the audit events that change what a cluster uses, in written order, and marks the deletion', async () => {
    const customer = await newCustomer(ctx);
    const subscriptionId = await newSubscription(ctx, customer);
    const clusterId = await newMeteredCluster(ctx, customer, subscriptionId);
    const expected: { changedAt: Date; usage: ClusterUsage; deleted: boolean }[] = [];
    for (const event of AUDIT_EVENTS) {
      ctx.clock.advance(MINUTE);
      await clusterEvent(ctx, clusterId, event);
      const usage = EVENT_USAGE[event];
      if (usage) expected.push({ changedAt: ctx.clock.now(), ...usage });
    }
    // Two events at one instant keep their written order.
    await clusterEvent(ctx, clusterId, 'CLUSTER_STOPPED');
    await clusterEvent(ctx, clusterId, 'CLUSTER_STARTED');
    expected.push({ changedAt: ctx.clock.now(), usage: 'stopped', deleted: false });
    expected.push({ changedAt: ctx.clock.now(), usage: 'running', deleted: false });

    const u = clusterUsageChanges;
    const changes = await ctx.database.db
      .select({ changedAt: u.changedAt, usage: u.usage, deleted: u.deleted })
      .from(u)
      .where(eq(u.clusterId, clusterId))
      .orderBy(asc(u.changedAt), asc(u.seq));
    expect(changes).toEqual(expected);
  });

  it('gives every cluster of the account with what it uses now by its status, nothing once deleted', async () => {
    const customer = await newCustomer(ctx);
    const subscriptionId = await newSubscription(ctx, customer);
    const expected = new Map<string, { name: string; usage: ClusterUsage; hasBackup: boolean; deleted: boolean }>();
    for (const [i, status] of CLUSTER_STATUSES.entries()) {
      const name = `status-${status.toLowerCase()}`;
      const id = await newMeteredCluster(ctx, customer, subscriptionId, { name, status, backup: i % 2 === 0 });
      expected.set(id, { name, usage: STATUS_USAGE[status], hasBackup: i % 2 === 0, deleted: false });
    }
    const deletedId = await newMeteredCluster(ctx, customer, subscriptionId, { name: 'deleted-online', status: 'ONLINE' });
    await rows(ctx, sql`update clusters set deleted_at = ${ctx.clock.now()} where id = ${deletedId}`);
    expected.set(deletedId, { name: 'deleted-online', usage: 'none', hasBackup: false, deleted: true });

    const d = clusterDirectory;
    const listed = await ctx.database.db.select().from(d).where(eq(d.accountId, customer.accountId));
    expect(listed).toHaveLength(expected.size);
    for (const row of listed) {
      const want = expected.get(row.clusterId)!;
      expect({ name: row.name, usage: row.usage, hasBackup: row.hasBackup, deleted: row.deletedAt !== null }).toEqual(want);
      expect(row).toMatchObject({ accountId: customer.accountId, subscriptionId });
      expect(row.createdAt).toBeInstanceOf(Date);
      expect(row.statusUpdatedAt).toBeInstanceOf(Date);
    }
  });
});

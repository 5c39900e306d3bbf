/** SQL of the clusters module. Every customer read is scoped to the account: another account's cluster is simply not found. */
import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { CLUSTER_SIZES, DEPLOYMENT_STEP_EVENTS } from '@kumo/contract';
import type { DbOrTx } from '../../db/client.js';
import { accountDirectory, userDirectory } from '../auth/index.js';
import { subscriptionDirectory } from '../subscriptions/index.js';
import { createManagerAccessRepository } from './access.repository.js';
import { createNetworkAccessRepository } from './network-access.repository.js';
import { clusterAuditLogs, clusterOperations, clusterSchedules, clusters } from './clusters.schema.js';
import { readClusterList, type SubscriptionClusterList } from './list-read.js';

export type ClusterRow = typeof clusters.$inferSelect;
export type OperationRow = typeof clusterOperations.$inferSelect;
export type ScheduleRow = typeof clusterSchedules.$inferSelect;

/** A cluster with what its presentation needs from its subscription and creator. */
const viewColumns = {
  cluster: clusters,
  subscriptionName: subscriptionDirectory.name,
  subscriptionBalanceCents: subscriptionDirectory.balanceCents,
  creatorName: userDirectory.name,
  creatorEmail: userDirectory.email,
};
export type ClusterView = {
  cluster: ClusterRow;
  subscriptionName: string;
  subscriptionBalanceCents: number;
  creatorName: string;
  creatorEmail: string;
};

export const BUSY_STATUSES = ['DEPLOYING', 'STARTING', 'STOPPING', 'DELETING'] as const;

/** The live clusters of some subscriptions, in fixed text: every subscription list reads it. */
const LIVE_OF_SUBSCRIPTIONS = sql.raw(`
  select subscription_id, id, name, status from "clusters" where deleted_at is null and subscription_id = any(`);
const OLDEST_FIRST = sql.raw('::uuid[]) order by created_at, id');

/** The query engines' cores of one cluster's current shape, as a scalar subquery. */
function coresOfCluster(clusterId: string) {
  const perEngine = sql.join(
    CLUSTER_SIZES.map((spec) => sql.raw(`when '${spec.size}' then ${spec.cores}`)),
    sql` `,
  );
  return sql`select (case ${clusters.size} ${perEngine} end) * ${clusters.queryEngines} from ${clusters} where ${clusters.id} = ${clusterId}`;
}

/** The subscription's clusters being deployed, with the shape they will run at. */
function deployingOf(subscriptionId: string, tx: DbOrTx) {
  return tx
    .select({ backupRegion: clusters.backupRegion, size: clusters.size, queryEngines: clusters.queryEngines })
    .from(clusters)
    .where(and(eq(clusters.subscriptionId, subscriptionId), eq(clusters.status, 'DEPLOYING'), isNull(clusters.deletedAt)));
}

export function createClustersRepository(db: DbOrTx) {
  const viewQuery = (tx: DbOrTx) =>
    tx
      .select(viewColumns)
      .from(clusters)
      .innerJoin(subscriptionDirectory, eq(subscriptionDirectory.id, clusters.subscriptionId))
      .innerJoin(userDirectory, eq(userDirectory.id, clusters.createdByUserId));

  return {
    ...createManagerAccessRepository(db),
    ...createNetworkAccessRepository(db),

    /** The account's clusters that are not deleted, oldest first; optionally one subscription's. */
    async listForAccount(accountId: string, subscriptionId?: string, tx: DbOrTx = db): Promise<ClusterView[]> {
      return viewQuery(tx)
        .where(
          and(
            eq(clusters.accountId, accountId),
            isNull(clusters.deletedAt),
            subscriptionId ? eq(clusters.subscriptionId, subscriptionId) : undefined,
          ),
        )
        .orderBy(asc(clusters.createdAt), asc(clusters.id));
    },

    /**
     * The account's live subscriptions (or one of them), each with its clusters that are not deleted, in the list's
     * order, each with its list of clusters (empty for one without). One read for the polled cluster list.
     */
    async subscriptionsWithClusters(accountId: string, subscriptionId?: string): Promise<SubscriptionClusterList[]> {
      return readClusterList(db, accountId, subscriptionId);
    },

    /** One cluster of the account; deleted ones only when asked (status polling sees the end of a deletion). */
    async findForAccount(accountId: string, id: string, options: { includeDeleted?: boolean } = {}, tx: DbOrTx = db) {
      const [row] = await viewQuery(tx)
        .where(and(eq(clusters.accountId, accountId), eq(clusters.id, id), options.includeDeleted ? undefined : isNull(clusters.deletedAt)))
        .limit(1);
      return row;
    },

    async findById(id: string, tx: DbOrTx = db): Promise<ClusterRow | undefined> {
      const [row] = await tx.select().from(clusters).where(eq(clusters.id, id)).limit(1);
      return row;
    },

    /** Locks the cluster row for a state change; undefined when another account's or unknown. */
    async lockForAccount(accountId: string, id: string, tx: DbOrTx): Promise<ClusterRow | undefined> {
      const [row] = await tx
        .select()
        .from(clusters)
        .where(and(eq(clusters.accountId, accountId), eq(clusters.id, id), isNull(clusters.deletedAt)))
        .for('update')
        .limit(1);
      return row;
    },

    /**
     * Claims a busy cluster for reconciling: one UPDATE that wins only while nobody holds the lease or it ran out.
     * Returns the row as claimed; undefined when it is not busy, unknown, or another claim still runs.
     */
    async claimLease(id: string, holder: string, now: Date, until: Date, tx: DbOrTx = db): Promise<ClusterRow | undefined> {
      const [row] = await tx
        .update(clusters)
        .set({ reconcileLeaseHolder: holder, reconcileLeaseUntil: until })
        .where(
          and(
            eq(clusters.id, id),
            or(inArray(clusters.status, [...BUSY_STATUSES]), isNotNull(clusters.resizeToSize)),
            or(isNull(clusters.reconcileLeaseUntil), lte(clusters.reconcileLeaseUntil, now)),
          ),
        )
        .returning();
      return row;
    },

    /** Locks the cluster to write a reconcile result: only while `holder` still holds its lease. */
    async lockLeased(id: string, holder: string, tx: DbOrTx): Promise<ClusterRow | undefined> {
      const [row] = await tx
        .select()
        .from(clusters)
        .where(and(eq(clusters.id, id), eq(clusters.reconcileLeaseHolder, holder)))
        .for('update')
        .limit(1);
      return row;
    },

    /** Ends a lease without writing anything else; a no-op once the lease is someone else's. */
    async releaseLease(id: string, holder: string, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(clusters)
        .set({ reconcileLeaseHolder: null, reconcileLeaseUntil: null })
        .where(and(eq(clusters.id, id), eq(clusters.reconcileLeaseHolder, holder)));
    },

    /** Live clusters of these subscriptions, oldest first: the subscriptions list shows their names and statuses. */
    async liveOfSubscriptions(subscriptionIds: string[], tx: DbOrTx = db) {
      if (subscriptionIds.length === 0) return [];
      const result = await tx.execute(sql`${LIVE_OF_SUBSCRIPTIONS}${sql.param(subscriptionIds)}${OLDEST_FIRST}`);
      return (result.rows as unknown as { subscription_id: string; id: string; name: string; status: string }[]).map((row) => ({
        subscriptionId: row.subscription_id,
        id: row.id,
        name: row.name,
        status: row.status,
      }));
    },

    async busyIds(tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .select({ id: clusters.id })
        .from(clusters)
        .where(or(inArray(clusters.status, [...BUSY_STATUSES]), isNotNull(clusters.resizeToSize)));
      return rows.map((row) => row.id);
    },

    /** The online clusters with the portal's SQL credential: those whose endpoint activity the portal reads. */
    async onlineWithSqlCredential(tx: DbOrTx = db) {
      return tx
        .select({ id: clusters.id, stackName: clusters.stackName, region: clusters.region, sealed: clusters.sealedSqlCredential })
        .from(clusters)
        .where(and(eq(clusters.status, 'ONLINE'), sql`${clusters.sealedSqlCredential} IS NOT NULL`));
    },

    /** CIDR blocks of the account's live clusters in any of the given regions (as region or backup region). */
    async cidrsInRegions(accountId: string, regions: string[], tx: DbOrTx = db): Promise<string[]> {
      if (regions.length === 0) return [];
      const rows = await tx
        .select({ cidr: clusters.cidr })
        .from(clusters)
        .where(
          and(
            eq(clusters.accountId, accountId),
            isNull(clusters.deletedAt),
            or(inArray(clusters.region, regions), inArray(clusters.backupRegion, regions)),
          ),
        );
      return rows.map((row) => row.cidr);
    },

    deployingOf,
    async nameTaken(subscriptionId: string, name: string, tx: DbOrTx = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: clusters.id })
        .from(clusters)
        .where(and(eq(clusters.subscriptionId, subscriptionId), isNull(clusters.deletedAt), sql`lower(${clusters.name}) = lower(${name})`))
        .limit(1);
      return !!row;
    },

    async insert(values: typeof clusters.$inferInsert, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.insert(clusters).values(values).returning({ id: clusters.id });
      return row!.id;
    },

    async update(id: string, patch: Partial<typeof clusters.$inferInsert>, tx: DbOrTx = db): Promise<void> {
      await tx.update(clusters).set(patch).where(eq(clusters.id, id));
    },

    async previewEnabled(accountId: string, tx: DbOrTx = db): Promise<boolean> {
      const [row] = await tx
        .select({ flag: accountDirectory.kumoEaVersionEnabled })
        .from(accountDirectory)
        .where(eq(accountDirectory.id, accountId))
        .limit(1);
      return row?.flag ?? false;
    },

    async userEmail(userId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx.select({ email: userDirectory.email }).from(userDirectory).where(eq(userDirectory.id, userId)).limit(1);
      return row?.email;
    },

    // ---- audit log ----

    /** Stamps the entry with the query engines' cores the cluster has as the entry is written (what metering charges). */
    async audit(values: typeof clusterAuditLogs.$inferInsert, tx: DbOrTx = db): Promise<void> {
      await tx.insert(clusterAuditLogs).values({ ...values, queryEngineCores: sql`(${coresOfCluster(values.clusterId)})` });
    },

    /** The events of every cluster of the account in [from, to), newest first, at most `limit` (the account's audit export). */
    async accountAuditRows(accountId: string, from: Date, to: Date, limit: number, tx: DbOrTx = db) {
      return tx
        .select({
          id: clusterAuditLogs.id,
          createdAt: clusterAuditLogs.createdAt,
          event: clusterAuditLogs.event,
          description: clusterAuditLogs.description,
          actorLabel: clusterAuditLogs.actorLabel,
          clusterId: clusters.id,
          clusterName: clusters.name,
        })
        .from(clusterAuditLogs)
        .innerJoin(clusters, eq(clusters.id, clusterAuditLogs.clusterId))
        .where(and(eq(clusters.accountId, accountId), gte(clusterAuditLogs.createdAt, from), lt(clusterAuditLogs.createdAt, to)))
        .orderBy(desc(clusterAuditLogs.createdAt), desc(clusterAuditLogs.seq))
        .limit(limit);
    },

    /** One page of a cluster's events in [from, to), newest first. */
    async auditPage(clusterId: string, from: Date, to: Date, page: number, size: number, tx: DbOrTx = db) {
      const where = and(
        eq(clusterAuditLogs.clusterId, clusterId),
        gte(clusterAuditLogs.createdAt, from),
        lt(clusterAuditLogs.createdAt, to),
      );
      const [total] = await tx.select({ n: count() }).from(clusterAuditLogs).where(where);
      const rows = await tx
        .select()
        .from(clusterAuditLogs)
        .where(where)
        .orderBy(desc(clusterAuditLogs.createdAt), desc(clusterAuditLogs.seq))
        .limit(size)
        .offset(page * size);
      return { rows, total: Number(total?.n ?? 0) };
    },

    /** The cluster's events in [from, to) and every deployment step event, in the order they were written. */
    async timelineEvents(clusterId: string, from: Date, to: Date, tx: DbOrTx = db) {
      return tx
        .select()
        .from(clusterAuditLogs)
        .where(
          and(
            eq(clusterAuditLogs.clusterId, clusterId),
            or(
              and(gte(clusterAuditLogs.createdAt, from), lt(clusterAuditLogs.createdAt, to)),
              inArray(clusterAuditLogs.event, [...DEPLOYMENT_STEP_EVENTS]),
            ),
          ),
        )
        .orderBy(asc(clusterAuditLogs.createdAt), asc(clusterAuditLogs.seq));
    },

    // ---- approvals ----

    async insertOperation(values: typeof clusterOperations.$inferInsert, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.insert(clusterOperations).values(values).returning({ id: clusterOperations.id });
      return row!.id;
    },

    async findOperation(accountId: string, id: string, tx: DbOrTx = db): Promise<OperationRow | undefined> {
      const [row] = await tx
        .select()
        .from(clusterOperations)
        .where(and(eq(clusterOperations.accountId, accountId), eq(clusterOperations.id, id)))
        .limit(1);
      return row;
    },

    /** Marks the operation approved; false when it was approved already (single use). */
    async approveOperation(id: string, at: Date, tx: DbOrTx): Promise<boolean> {
      const rows = await tx
        .update(clusterOperations)
        .set({ approvedAt: at })
        .where(and(eq(clusterOperations.id, id), isNull(clusterOperations.approvedAt)))
        .returning({ id: clusterOperations.id });
      return rows.length === 1;
    },

    async updateOperation(id: string, patch: Partial<typeof clusterOperations.$inferInsert>, tx: DbOrTx = db): Promise<void> {
      await tx.update(clusterOperations).set(patch).where(eq(clusterOperations.id, id));
    },

    // ---- schedules ----

    async findSchedule(clusterId: string, tx: DbOrTx = db): Promise<ScheduleRow | undefined> {
      const [row] = await tx.select().from(clusterSchedules).where(eq(clusterSchedules.clusterId, clusterId)).limit(1);
      return row;
    },

    async upsertSchedule(values: typeof clusterSchedules.$inferInsert, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(clusterSchedules)
        .values(values)
        .onConflictDoUpdate({
          target: clusterSchedules.clusterId,
          set: {
            enabled: values.enabled,
            timeZone: values.timeZone,
            rules: values.rules,
            lastCheckedAt: values.lastCheckedAt,
            updatedAt: values.updatedAt,
          },
        });
    },

    /** Enabled schedules of clusters that still exist. */
    async enabledSchedules(tx: DbOrTx = db) {
      return tx
        .select({ schedule: clusterSchedules, accountId: clusters.accountId })
        .from(clusterSchedules)
        .innerJoin(clusters, eq(clusters.id, clusterSchedules.clusterId))
        .where(and(eq(clusterSchedules.enabled, true), isNull(clusters.deletedAt)));
    },

    async markScheduleChecked(clusterId: string, at: Date, tx: DbOrTx = db): Promise<void> {
      await tx.update(clusterSchedules).set({ lastCheckedAt: at }).where(eq(clusterSchedules.clusterId, clusterId));
    },
  };
}
export type ClustersRepository = ReturnType<typeof createClustersRepository>;

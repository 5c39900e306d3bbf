import { count, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { clusterDirectory } from '../clusters/index.js';
import { clusterQueries, clusterSqlActivityCursors } from './cluster-sql.schema.js';

export type ClusterQueryRow = typeof clusterQueries.$inferSelect;
/** A cursor row made before its endpoint was read to the end. */
const NEVER_READ = new Date(0);

export type ClusterQueryInsert = Omit<typeof clusterQueries.$inferInsert, 'id'>;

/**
 * SQL of the query history: written once per query or refused attempt (a record pulled from an endpoint once, however
 * often it is pulled), read newest first; and the cursors of the endpoints' activity reads.
 */
export function createClusterSqlRepository(db: DbOrTx) {
  return {
    async insert(row: ClusterQueryInsert, tx: DbOrTx = db): Promise<void> {
      await tx.insert(clusterQueries).values(row).onConflictDoNothing();
    },

    /** Where the next activity read of the cluster goes on from; null before the first. */
    async activityCursor(clusterId: string, tx: DbOrTx = db): Promise<string | null> {
      const [row] = await tx
        .select({ cursor: clusterSqlActivityCursors.cursor })
        .from(clusterSqlActivityCursors)
        .where(eq(clusterSqlActivityCursors.clusterId, clusterId));
      return row?.cursor ?? null;
    },

    /**
     * Moves the cluster's cursor from `from` to `to`, only if it still stands at `from`: false when another process
     * moved it first (that one carries on reading, and what both recorded is kept once).
     */
    async advanceActivityCursor(clusterId: string, from: string | null, to: string, tx: DbOrTx = db): Promise<boolean> {
      const table = clusterSqlActivityCursors;
      const moved = await tx
        .insert(table)
        .values({ clusterId, cursor: to, readAt: NEVER_READ })
        .onConflictDoUpdate({ target: table.clusterId, set: { cursor: to }, setWhere: sql`${table.cursor} IS NOT DISTINCT FROM ${from}` })
        .returning({ clusterId: table.clusterId });
      return moved.length > 0;
    },

    /** Notes that the cluster's endpoint was read to the end at `at` (never earlier than a read noted before). */
    async markActivityRead(clusterId: string, at: Date, tx: DbOrTx = db): Promise<void> {
      const table = clusterSqlActivityCursors;
      await tx
        .insert(table)
        .values({ clusterId, cursor: null, readAt: at })
        .onConflictDoUpdate({ target: table.clusterId, set: { readAt: sql`greatest(${table.readAt}, excluded.read_at)` } });
    },

    /** When the cluster's endpoint was last read to the end; undefined before the first time. */
    async activityReadAt(clusterId: string, tx: DbOrTx = db): Promise<Date | undefined> {
      const [row] = await tx
        .select({ readAt: clusterSqlActivityCursors.readAt })
        .from(clusterSqlActivityCursors)
        .where(eq(clusterSqlActivityCursors.clusterId, clusterId));
      return row?.readAt;
    },

    /** The account a cluster belongs to (an endpoint's request names only the cluster); undefined when unknown. */
    async accountOfCluster(clusterId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx
        .select({ accountId: clusterDirectory.accountId })
        .from(clusterDirectory)
        .where(eq(clusterDirectory.clusterId, clusterId))
        .limit(1);
      return row?.accountId;
    },

    async page(clusterId: string, page: number, size: number, tx: DbOrTx = db): Promise<{ rows: ClusterQueryRow[]; total: number }> {
      const [rows, [counted]] = await Promise.all([
        tx
          .select()
          .from(clusterQueries)
          .where(eq(clusterQueries.clusterId, clusterId))
          .orderBy(desc(clusterQueries.startedAt), desc(clusterQueries.id))
          .limit(size)
          .offset(page * size),
        tx.select({ n: count() }).from(clusterQueries).where(eq(clusterQueries.clusterId, clusterId)),
      ]);
      return { rows, total: counted?.n ?? 0 };
    },
  };
}
export type ClusterSqlRepository = ReturnType<typeof createClusterSqlRepository>;

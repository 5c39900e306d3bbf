import { and, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { clusterDirectory } from '../clusters/index.js';
import { clusterQueries, clusterSqlActivityCursors } from './cluster-sql.schema.js';

export type ClusterQueryRow = typeof clusterQueries.$inferSelect;
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
    async advanceActivityCursor(clusterId: string, from: string | null, to: string, at: Date, tx: DbOrTx = db): Promise<boolean> {
      const moved =
        from === null
          ? await tx
              .insert(clusterSqlActivityCursors)
              .values({ clusterId, cursor: to, pulledAt: at })
              .onConflictDoNothing()
              .returning({ clusterId: clusterSqlActivityCursors.clusterId })
          : await tx
              .update(clusterSqlActivityCursors)
              .set({ cursor: to, pulledAt: at })
              .where(and(eq(clusterSqlActivityCursors.clusterId, clusterId), eq(clusterSqlActivityCursors.cursor, from)))
              .returning({ clusterId: clusterSqlActivityCursors.clusterId });
      return moved.length > 0;
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

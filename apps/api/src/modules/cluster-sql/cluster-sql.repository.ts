import { count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { clusterDirectory } from '../clusters/index.js';
import { clusterQueries } from './cluster-sql.schema.js';

export type ClusterQueryRow = typeof clusterQueries.$inferSelect;
export type ClusterQueryInsert = Omit<typeof clusterQueries.$inferInsert, 'id'>;

/** SQL of the query history: written once per query or refused attempt, read newest first. */
export function createClusterSqlRepository(db: DbOrTx) {
  return {
    async insert(row: ClusterQueryInsert, tx: DbOrTx = db): Promise<void> {
      await tx.insert(clusterQueries).values(row);
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

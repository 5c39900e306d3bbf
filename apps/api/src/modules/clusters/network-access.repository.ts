/** SQL of the clusters' network access lists. */
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { clusterNetworkAccess, clusters } from './clusters.schema.js';

/** The statuses in which a cluster's stack, and so its firewall, stands complete. */
export const DEPLOYED_STATUSES = ['ONLINE', 'OFFLINE', 'STARTING', 'STOPPING'] as const;

export type NetworkAccessRow = typeof clusterNetworkAccess.$inferSelect;

export function createNetworkAccessRepository(db: DbOrTx) {
  return {
    async networkAccessOf(clusterId: string, tx: DbOrTx = db): Promise<NetworkAccessRow | undefined> {
      const [row] = await tx.select().from(clusterNetworkAccess).where(eq(clusterNetworkAccess.clusterId, clusterId)).limit(1);
      return row;
    },

    /** Writes the list whole, one version further than the one it replaces (the first is version 1). */
    async saveNetworkAccess(
      row: Omit<NetworkAccessRow, 'version' | 'cloudVersion'> & { cloudVersion?: number },
      tx: DbOrTx = db,
    ): Promise<NetworkAccessRow> {
      const [saved] = await tx
        .insert(clusterNetworkAccess)
        .values({ ...row, version: 1, cloudVersion: row.cloudVersion ?? 0 })
        .onConflictDoUpdate({
          target: clusterNetworkAccess.clusterId,
          set: {
            allowAnywhere: sql`excluded.allow_anywhere`,
            allowed: sql`excluded.allowed`,
            version: sql`${clusterNetworkAccess.version} + 1`,
            updatedByUserId: sql`excluded.updated_by_user_id`,
            updatedByLabel: sql`excluded.updated_by_label`,
            updatedAt: sql`excluded.updated_at`,
          },
        })
        .returning();
      return saved!;
    },

    /** Notes that the cloud's firewall holds `version` (never going back, should an older carry finish late). */
    async markNetworkAccessCarried(clusterId: string, version: number, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(clusterNetworkAccess)
        .set({ cloudVersion: version })
        .where(and(eq(clusterNetworkAccess.clusterId, clusterId), lt(clusterNetworkAccess.cloudVersion, version)));
    },

    /** Deployed clusters whose list changed since the cloud's firewall was last brought to it. */
    async networkAccessBehindCloud(tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .select({ id: clusterNetworkAccess.clusterId })
        .from(clusterNetworkAccess)
        .innerJoin(clusters, eq(clusters.id, clusterNetworkAccess.clusterId))
        .where(
          and(
            lt(clusterNetworkAccess.cloudVersion, clusterNetworkAccess.version),
            inArray(clusters.status, [...DEPLOYED_STATUSES]),
            isNull(clusters.deletedAt),
          ),
        );
      return rows.map((row) => row.id);
    },
  };
}

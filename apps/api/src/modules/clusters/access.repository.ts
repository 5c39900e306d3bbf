/** SQL of the manager access levels: the account's people (from the auth module's published views) and their levels. */
import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountMemberDirectory, userDirectory } from '../auth/index.js';
import { clusterManagerAccess } from './clusters.schema.js';

// The role decides first: joined times can tie, and the owner belongs at the top of the list.
const roleRank = sql`case ${accountMemberDirectory.role} when 'ACCOUNT_OWNER' then 0 when 'ACCOUNT_ADMIN' then 1 else 2 end`;

export type ManagerAccessRow = typeof clusterManagerAccess.$inferSelect;

export function createManagerAccessRepository(db: DbOrTx) {
  return {
    /** Everyone who belongs to the account: the owner first, then admins, then members, each in the order they joined. */
    async accountPeople(accountId: string, tx: DbOrTx = db) {
      return tx
        .select({ userId: userDirectory.id, name: userDirectory.name, email: userDirectory.email, role: accountMemberDirectory.role })
        .from(accountMemberDirectory)
        .innerJoin(userDirectory, eq(userDirectory.id, accountMemberDirectory.userId))
        .where(eq(accountMemberDirectory.accountId, accountId))
        .orderBy(roleRank, asc(accountMemberDirectory.createdAt), asc(userDirectory.email));
    },

    /** The levels someone has set on the cluster, by person. */
    async managerAccessOf(clusterId: string, tx: DbOrTx = db): Promise<Map<string, string>> {
      const rows = await tx
        .select({ userId: clusterManagerAccess.userId, level: clusterManagerAccess.accessLevel })
        .from(clusterManagerAccess)
        .where(eq(clusterManagerAccess.clusterId, clusterId));
      return new Map(rows.map((row) => [row.userId, row.level]));
    },

    async setManagerAccess(rows: (typeof clusterManagerAccess.$inferInsert)[], tx: DbOrTx = db): Promise<void> {
      if (rows.length === 0) return;
      await tx
        .insert(clusterManagerAccess)
        .values(rows)
        .onConflictDoUpdate({
          target: [clusterManagerAccess.clusterId, clusterManagerAccess.userId],
          set: {
            accessLevel: sql`excluded.access_level`,
            updatedByUserId: sql`excluded.updated_by_user_id`,
            updatedAt: sql`excluded.updated_at`,
          },
        });
    },
  };
}

import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountDirectory, userDirectory } from '../auth/index.js';

export function createAdminRepository(db: DbOrTx) {
  return {
    /** Customers are the people who own an account, newest first. */
    async pageCustomers(page: number, size: number, tx: DbOrTx = db) {
      const rows = await tx
        .select({ user_id: userDirectory.id, user_name: userDirectory.name, email_id: userDirectory.email })
        .from(userDirectory)
        .innerJoin(accountDirectory, eq(accountDirectory.ownerUserId, userDirectory.id))
        .orderBy(asc(userDirectory.email))
        .limit(size)
        .offset(page * size);
      const [total] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(userDirectory)
        .innerJoin(accountDirectory, eq(accountDirectory.ownerUserId, userDirectory.id));
      return { rows, total: total?.count ?? 0 };
    },
  };
}
export type AdminRepository = ReturnType<typeof createAdminRepository>;

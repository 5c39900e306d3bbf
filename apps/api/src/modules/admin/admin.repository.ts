import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accounts, users } from '../../db/schema.js';

export function createAdminRepository(db: DbOrTx) {
  return {
    /** Customers are the people who own an account, newest first. */
    async pageCustomers(page: number, size: number, tx: DbOrTx = db) {
      const rows = await tx
        .select({ user_id: users.id, user_name: users.name, email_id: users.email })
        .from(users)
        .innerJoin(accounts, eq(accounts.ownerUserId, users.id))
        .orderBy(asc(users.email))
        .limit(size)
        .offset(page * size);
      const [total] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .innerJoin(accounts, eq(accounts.ownerUserId, users.id));
      return { rows, total: total?.count ?? 0 };
    },
  };
}
export type AdminRepository = ReturnType<typeof createAdminRepository>;

import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountDirectory, userDirectory } from '../auth/index.js';

export function createAdminRepository(db: DbOrTx) {
  return {
    /** Customers are the people who own an account, by e-mail; `search` keeps those whose e-mail or name contains it. */
    async pageCustomers(page: number, size: number, search = '', tx: DbOrTx = db) {
      const words = search.trim();
      // Typed text is matched literally: % and _ are not wildcards.
      const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const matches: SQL | undefined = words ? or(ilike(userDirectory.email, pattern), ilike(userDirectory.name, pattern)) : undefined;
      const owners = eq(accountDirectory.ownerUserId, userDirectory.id);
      const rows = await tx
        .select({ user_id: userDirectory.id, user_name: userDirectory.name, email_id: userDirectory.email })
        .from(userDirectory)
        .innerJoin(accountDirectory, owners)
        .where(and(matches))
        .orderBy(asc(userDirectory.email))
        .limit(size)
        .offset(page * size);
      const [total] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(userDirectory)
        .innerJoin(accountDirectory, owners)
        .where(and(matches));
      return { rows, total: total?.count ?? 0 };
    },
  };
}
export type AdminRepository = ReturnType<typeof createAdminRepository>;

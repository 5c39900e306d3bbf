import { and, asc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accounts, adminOperations, users } from '../../db/schema.js';

export type AdminOperationRow = typeof adminOperations.$inferSelect;

/** The four-eyes operations and the people they concern; nothing here moves money or touches clusters. */
export function createOperationsRepository(db: DbOrTx) {
  return {
    /** A customer is the owner of an account: their oldest account is the one staff act on. */
    async customer(userId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ userId: users.id, email: users.email, name: users.name, accountId: accounts.id })
        .from(users)
        .innerJoin(accounts, eq(accounts.ownerUserId, users.id))
        .where(eq(users.id, userId))
        .orderBy(asc(accounts.createdAt))
        .limit(1);
      return row;
    },

    async userEmail(userId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
      return row?.email;
    },

    /** Every SYSTEM_ADMIN but the one given, by e-mail. */
    async otherSystemAdmins(exceptEmail: string, tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .select({ email: users.email })
        .from(users)
        .where(and(eq(users.systemRole, 'SYSTEM_ADMIN'), ne(sql`lower(${users.email})`, exceptEmail.toLowerCase())))
        .orderBy(asc(users.email));
      return rows.map((row) => row.email);
    },

    async insert(values: typeof adminOperations.$inferInsert, tx: DbOrTx = db): Promise<AdminOperationRow> {
      const [row] = await tx.insert(adminOperations).values(values).returning();
      return row!;
    },

    async find(id: string, tx: DbOrTx = db): Promise<AdminOperationRow | undefined> {
      const [row] = await tx.select().from(adminOperations).where(eq(adminOperations.id, id)).limit(1);
      return row;
    },

    async update(id: string, patch: Partial<typeof adminOperations.$inferInsert>, tx: DbOrTx = db): Promise<void> {
      await tx.update(adminOperations).set(patch).where(eq(adminOperations.id, id));
    },

    /** Marks the operation used; false when someone used it first (single use even under concurrent calls). */
    async approve(id: string, approvedAt: Date, approvedByEmail: string, tx: DbOrTx): Promise<boolean> {
      const rows = await tx
        .update(adminOperations)
        .set({ approvedAt, approvedByEmail })
        .where(and(eq(adminOperations.id, id), isNull(adminOperations.approvedAt)))
        .returning({ id: adminOperations.id });
      return rows.length === 1;
    },

    /** Operations still waiting whose OTPs went to this approver, oldest first. */
    async pendingFor(approverEmail: string, now: Date, tx: DbOrTx = db) {
      return tx
        .select({
          operation: adminOperations,
          customerEmail: users.email,
          requesterEmail: sql<string>`(select email from users r where r.id = ${adminOperations.requestedByUserId})`,
        })
        .from(adminOperations)
        .innerJoin(users, eq(users.id, adminOperations.customerUserId))
        .where(
          and(
            isNull(adminOperations.approvedAt),
            gt(adminOperations.expiresAt, now),
            sql`jsonb_exists(${adminOperations.approverOtpHashes}, ${approverEmail.toLowerCase()})`,
          ),
        )
        .orderBy(asc(adminOperations.createdAt));
    },
  };
}
export type OperationsRepository = ReturnType<typeof createOperationsRepository>;

/** The customer's manager (KM) access settings, kept on their account. */
export function createKmAccessRepository(db: DbOrTx) {
  return {
    async customerDetail(userId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({
          userId: users.id,
          name: users.name,
          email: users.email,
          createdAt: users.createdAt,
          accountId: accounts.id,
          kmAdminAccess: accounts.kmAdminAccess,
          kmUserRole: accounts.kmUserRole,
          kumoEaVersionEnabled: accounts.kumoEaVersionEnabled,
        })
        .from(users)
        .innerJoin(accounts, eq(accounts.ownerUserId, users.id))
        .where(eq(users.id, userId))
        .orderBy(asc(accounts.createdAt))
        .limit(1);
      return row;
    },

    async setKmAccess(accountId: string, adminAccess: boolean, kmUserRole: string, tx: DbOrTx = db): Promise<void> {
      await tx.update(accounts).set({ kmAdminAccess: adminAccess, kmUserRole }).where(eq(accounts.id, accountId));
    },
  };
}
export type KmAccessRepository = ReturnType<typeof createKmAccessRepository>;

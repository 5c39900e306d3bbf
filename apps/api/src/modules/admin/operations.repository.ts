import { and, asc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import { accountDirectory, userDirectory } from '../auth/index.js';
import { adminOperations } from './admin.schema.js';

export type AdminOperationRow = typeof adminOperations.$inferSelect;
export interface PendingRow {
  operation: AdminOperationRow;
  customerEmail: string;
  customerName: string;
  requesterEmail: string;
}

/** The four-eyes operations and the people they concern; nothing here moves money or touches clusters. */
export function createOperationsRepository(db: DbOrTx) {
  return {
    /** A customer is the owner of an account: their oldest account is the one staff act on. */
    async customer(userId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({ userId: userDirectory.id, email: userDirectory.email, name: userDirectory.name, accountId: accountDirectory.id })
        .from(userDirectory)
        .innerJoin(accountDirectory, eq(accountDirectory.ownerUserId, userDirectory.id))
        .where(eq(userDirectory.id, userId))
        .orderBy(asc(accountDirectory.createdAt))
        .limit(1);
      return row;
    },

    async userEmail(userId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx.select({ email: userDirectory.email }).from(userDirectory).where(eq(userDirectory.id, userId)).limit(1);
      return row?.email;
    },

    /** Every SYSTEM_ADMIN but the one given, by e-mail. */
    async otherSystemAdmins(exceptEmail: string, tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .select({ email: userDirectory.email })
        .from(userDirectory)
        .where(and(eq(userDirectory.systemRole, 'SYSTEM_ADMIN'), ne(sql`lower(${userDirectory.email})`, exceptEmail.toLowerCase())))
        .orderBy(asc(userDirectory.email));
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
        .where(and(eq(adminOperations.id, id), isNull(adminOperations.approvedAt), isNull(adminOperations.cancelledAt)))
        .returning({ id: adminOperations.id });
      return rows.length === 1;
    },

    /** Withdraws a waiting operation; false when it was approved or cancelled first. */
    async cancel(id: string, cancelledAt: Date, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(adminOperations)
        .set({ cancelledAt, outcome: 'Cancelled by the requester' })
        .where(and(eq(adminOperations.id, id), isNull(adminOperations.approvedAt), isNull(adminOperations.cancelledAt)))
        .returning({ id: adminOperations.id });
      return rows.length === 1;
    },

    /** Operations still waiting, oldest first: those whose OTPs went to this approver, or those this staff member asked for. */
    async pendingFor(who: { approverEmail: string } | { requestedBy: string }, now: Date, tx: DbOrTx = db): Promise<PendingRow[]> {
      const requester = alias(userDirectory, 'requester');
      return tx
        .select({
          operation: adminOperations,
          customerEmail: userDirectory.email,
          customerName: userDirectory.name,
          requesterEmail: requester.email,
        })
        .from(adminOperations)
        .innerJoin(userDirectory, eq(userDirectory.id, adminOperations.customerUserId))
        .innerJoin(requester, eq(requester.id, adminOperations.requestedByUserId))
        .where(
          and(
            isNull(adminOperations.approvedAt),
            isNull(adminOperations.cancelledAt),
            gt(adminOperations.expiresAt, now),
            'approverEmail' in who
              ? sql`jsonb_exists(${adminOperations.approverOtpHashes}, ${who.approverEmail.toLowerCase()})`
              : eq(adminOperations.requestedByUserId, who.requestedBy),
          ),
        )
        .orderBy(asc(adminOperations.createdAt));
    },
  };
}
export type OperationsRepository = ReturnType<typeof createOperationsRepository>;

/** The customer's manager (KM) access settings, kept on their account (changed through the auth module's `AccountRecords`). */
export function createKmAccessRepository(db: DbOrTx) {
  return {
    async customerDetail(userId: string, tx: DbOrTx = db) {
      const [row] = await tx
        .select({
          userId: userDirectory.id,
          name: userDirectory.name,
          email: userDirectory.email,
          createdAt: userDirectory.createdAt,
          accountId: accountDirectory.id,
          kmAdminAccess: accountDirectory.kmAdminAccess,
          kmUserRole: accountDirectory.kmUserRole,
          kumoEaVersionEnabled: accountDirectory.kumoEaVersionEnabled,
        })
        .from(userDirectory)
        .innerJoin(accountDirectory, eq(accountDirectory.ownerUserId, userDirectory.id))
        .where(eq(userDirectory.id, userId))
        .orderBy(asc(accountDirectory.createdAt))
        .limit(1);
      return row;
    },

    /** Who a manager ticket names (the staff member opening it). */
    async userEmail(userId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx.select({ email: userDirectory.email }).from(userDirectory).where(eq(userDirectory.id, userId)).limit(1);
      return row?.email;
    },
  };
}
export type KmAccessRepository = ReturnType<typeof createKmAccessRepository>;

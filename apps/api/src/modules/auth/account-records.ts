import { and, eq } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.js';
import { accountMembers, accounts, users } from './auth.schema.js';

/**
 * The writes other modules make to people, accounts and memberships, which the auth module owns. Every method takes
 * the caller's transaction, so a membership is created in the same transaction as the invitation it accepts.
 */
export function createAccountRecords(db: Database) {
  return {
    async addPerson(values: { email: string; name: string; createdAt: Date }, tx: DbOrTx = db): Promise<{ id: string }> {
      const [user] = await tx.insert(users).values(values).returning({ id: users.id });
      return user!;
    },

    /** Adds the person to the account in the role; nothing happens when they are a member already. */
    async addMember(accountId: string, userId: string, role: string, at: Date, tx: DbOrTx = db): Promise<void> {
      await tx.insert(accountMembers).values({ accountId, userId, role, createdAt: at }).onConflictDoNothing();
    },

    async removeMember(accountId: string, userId: string, tx: DbOrTx = db): Promise<void> {
      await tx.delete(accountMembers).where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)));
    },

    /** Preview release: whether preview Kumo versions are offered to the account at deployment. */
    async setPreviewEnabled(accountId: string, enabled: boolean, tx: DbOrTx = db): Promise<void> {
      await tx.update(accounts).set({ kumoEaVersionEnabled: enabled }).where(eq(accounts.id, accountId));
    },

    /** The customer's manager (KM) access settings. */
    async setKmAccess(accountId: string, adminAccess: boolean, kmUserRole: string, tx: DbOrTx = db): Promise<void> {
      await tx.update(accounts).set({ kmAdminAccess: adminAccess, kmUserRole }).where(eq(accounts.id, accountId));
    },
  };
}
export type AccountRecords = ReturnType<typeof createAccountRecords>;

import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountMemberDirectory, userDirectory } from '../auth/index.js';
import { invitations, memberSubscriptions } from './users.schema.js';

export type InvitationRow = typeof invitations.$inferSelect;

/** Neither accepted nor revoked (it may still have expired). */
const pending = (): SQL => and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt))!;

/**
 * SQL for an account's people: invitations and Cluster Members' subscriptions, with the people and memberships the
 * auth module publishes (its views; it writes them, through `AccountRecords`).
 */
export function createUsersRepository(db: DbOrTx) {
  return {
    /** Every member of the account, oldest first; always scoped by account. */
    async listMembers(accountId: string, tx: DbOrTx = db) {
      return tx
        .select({
          userId: userDirectory.id,
          name: userDirectory.name,
          email: userDirectory.email,
          role: accountMemberDirectory.role,
          addedOn: accountMemberDirectory.createdAt,
        })
        .from(accountMemberDirectory)
        .innerJoin(userDirectory, eq(userDirectory.id, accountMemberDirectory.userId))
        .where(eq(accountMemberDirectory.accountId, accountId))
        .orderBy(asc(accountMemberDirectory.createdAt));
    },

    async memberSubscriptionIds(accountId: string, tx: DbOrTx = db) {
      return tx
        .select({ userId: memberSubscriptions.userId, subscriptionId: memberSubscriptions.subscriptionId })
        .from(memberSubscriptions)
        .where(eq(memberSubscriptions.accountId, accountId));
    },

    async findMemberByEmail(accountId: string, email: string, tx: DbOrTx = db) {
      const [member] = await tx
        .select({ userId: userDirectory.id, role: accountMemberDirectory.role })
        .from(accountMemberDirectory)
        .innerJoin(userDirectory, eq(userDirectory.id, accountMemberDirectory.userId))
        .where(and(eq(accountMemberDirectory.accountId, accountId), eq(userDirectory.email, email)))
        .limit(1);
      return member;
    },

    async findUserByEmail(email: string, tx: DbOrTx = db) {
      const [user] = await tx.select().from(userDirectory).where(eq(userDirectory.email, email)).limit(1);
      return user;
    },

    async insertInvitation(values: typeof invitations.$inferInsert, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.insert(invitations).values(values).returning({ id: invitations.id });
      return row!.id;
    },

    /** Marks an open, unexpired invitation accepted; undefined when it is unknown, used, revoked or expired. */
    async acceptInvitation(tokenHash: string, now: Date, tx: DbOrTx = db): Promise<InvitationRow | undefined> {
      const [row] = await tx
        .update(invitations)
        .set({ acceptedAt: now })
        .where(and(eq(invitations.tokenHash, tokenHash), pending(), gt(invitations.expiresAt, now)))
        .returning();
      return row;
    },

    /** The account's invitations nobody accepted or revoked (expired ones included: they can be resent), oldest first. */
    async listPendingInvitations(accountId: string, tx: DbOrTx = db): Promise<InvitationRow[]> {
      return tx
        .select()
        .from(invitations)
        .where(and(eq(invitations.accountId, accountId), pending()))
        .orderBy(asc(invitations.createdAt));
    },

    /** A new token and expiry for a pending invitation of this account: the old link dies with its hash. */
    async renewInvitation(
      accountId: string,
      invitationId: string,
      values: { tokenHash: string; expiresAt: Date },
      tx: DbOrTx = db,
    ): Promise<InvitationRow | undefined> {
      const [row] = await tx
        .update(invitations)
        .set(values)
        .where(and(eq(invitations.id, invitationId), eq(invitations.accountId, accountId), pending()))
        .returning();
      return row;
    },

    /** Revokes a pending invitation of this account; undefined when there is none (another account's is not found either). */
    async revokeInvitation(accountId: string, invitationId: string, now: Date, tx: DbOrTx = db): Promise<InvitationRow | undefined> {
      const [row] = await tx
        .update(invitations)
        .set({ revokedAt: now })
        .where(and(eq(invitations.id, invitationId), eq(invitations.accountId, accountId), pending()))
        .returning();
      return row;
    },

    async grantSubscriptions(accountId: string, userId: string, subscriptionIds: string[], tx: DbOrTx = db): Promise<void> {
      if (subscriptionIds.length > 0) {
        await tx
          .insert(memberSubscriptions)
          .values(subscriptionIds.map((subscriptionId) => ({ accountId, userId, subscriptionId })))
          .onConflictDoNothing();
      }
    },

    async revokeSubscriptions(accountId: string, userId: string, tx: DbOrTx = db): Promise<void> {
      await tx.delete(memberSubscriptions).where(and(eq(memberSubscriptions.accountId, accountId), eq(memberSubscriptions.userId, userId)));
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;

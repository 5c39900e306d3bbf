import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountMembers, accounts, invitations, memberSubscriptions, users } from '../../db/schema.js';

export type InvitationRow = typeof invitations.$inferSelect;

/** Neither accepted nor revoked (it may still have expired). */
const pending = (): SQL => and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt))!;

/** SQL for an account's people: memberships, invitations and Cluster Members' subscriptions. */
export function createUsersRepository(db: DbOrTx) {
  return {
    /** Every member of the account, oldest first; always scoped by account. */
    async listMembers(accountId: string, tx: DbOrTx = db) {
      return tx
        .select({ userId: users.id, name: users.name, email: users.email, role: accountMembers.role, addedOn: accountMembers.createdAt })
        .from(accountMembers)
        .innerJoin(users, eq(users.id, accountMembers.userId))
        .where(eq(accountMembers.accountId, accountId))
        .orderBy(asc(accountMembers.createdAt));
    },

    async memberSubscriptionIds(accountId: string, tx: DbOrTx = db) {
      return tx
        .select({ userId: memberSubscriptions.userId, subscriptionId: memberSubscriptions.subscriptionId })
        .from(memberSubscriptions)
        .where(eq(memberSubscriptions.accountId, accountId));
    },

    async findMemberByEmail(accountId: string, email: string, tx: DbOrTx = db) {
      const [member] = await tx
        .select({ userId: users.id, role: accountMembers.role })
        .from(accountMembers)
        .innerJoin(users, eq(users.id, accountMembers.userId))
        .where(and(eq(accountMembers.accountId, accountId), eq(users.email, email)))
        .limit(1);
      return member;
    },

    async findUserByEmail(email: string, tx: DbOrTx = db) {
      const [user] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
      return user;
    },

    async insertUser(values: typeof users.$inferInsert, tx: DbOrTx = db) {
      const [user] = await tx.insert(users).values(values).returning();
      return user!;
    },

    async accountOwnerEmail(accountId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx
        .select({ email: users.email })
        .from(accounts)
        .innerJoin(users, eq(users.id, accounts.ownerUserId))
        .where(eq(accounts.id, accountId))
        .limit(1);
      return row?.email;
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

    async addMember(accountId: string, userId: string, role: string, subscriptionIds: string[], now: Date, tx: DbOrTx = db): Promise<void> {
      await tx.insert(accountMembers).values({ accountId, userId, role, createdAt: now }).onConflictDoNothing();
      if (subscriptionIds.length > 0) {
        await tx
          .insert(memberSubscriptions)
          .values(subscriptionIds.map((subscriptionId) => ({ accountId, userId, subscriptionId })))
          .onConflictDoNothing();
      }
    },

    async removeMember(accountId: string, userId: string, tx: DbOrTx = db): Promise<void> {
      await tx.delete(memberSubscriptions).where(and(eq(memberSubscriptions.accountId, accountId), eq(memberSubscriptions.userId, userId)));
      await tx.delete(accountMembers).where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)));
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;

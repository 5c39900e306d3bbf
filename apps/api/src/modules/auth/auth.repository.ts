import { and, count, desc, eq, gt, gte, isNull, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.js';
import {
  accountAuditLogs,
  accountMembers,
  accounts,
  authLocks,
  otpAttempts,
  otpChallenges,
  refreshTokens,
  sessions,
  users,
} from './auth.schema.js';

export type UserRow = typeof users.$inferSelect;
export type OtpChallengeRow = typeof otpChallenges.$inferSelect;

/** SQL for people, their memberships, OTP challenges and sessions. */
export function createAuthRepository(db: DbOrTx) {
  // Every signed-in request looks its session up (auth-guard.ts): the query is built once, and prepared once per
  // connection on the server.
  const sessionById = db
    .select()
    .from(sessions)
    .where(eq(sessions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_session_by_id');
  // The same lookup for the guard, with the person's current staff role (and in a customer view, the viewing staff
  // member's): staff rights follow it on the next request.
  const actingStaff = alias(users, 'acting_staff');
  const requestSessionById = db
    .select({
      userId: sessions.userId,
      actingUserId: sessions.actingUserId,
      revokedAt: sessions.revokedAt,
      systemRole: users.systemRole,
      actingSystemRole: actingStaff.systemRole,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(actingStaff, eq(actingStaff.id, sessions.actingUserId))
    .where(eq(sessions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('auth_request_session_by_id');

  return {
    async findUserByEmail(email: string, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [user] = await tx.select().from(users).where(eq(users.email, email)).limit(1);
      return user;
    },

    async findUserById(id: string, tx: DbOrTx = db): Promise<UserRow | undefined> {
      const [user] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
      return user;
    },

    async insertUser(values: typeof users.$inferInsert, tx: DbOrTx = db): Promise<UserRow> {
      const [user] = await tx.insert(users).values(values).returning();
      return user!;
    },

    async insertAccountWithOwner(ownerUserId: string, createdAt: Date, tx: DbOrTx = db): Promise<string> {
      const [account] = await tx.insert(accounts).values({ ownerUserId, createdAt }).returning({ id: accounts.id });
      await tx.insert(accountMembers).values({ accountId: account!.id, userId: ownerUserId, role: 'ACCOUNT_OWNER', createdAt });
      return account!.id;
    },

    /** The e-mail of the account's owner; undefined for an account that does not exist. */
    async accountOwnerEmail(accountId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx
        .select({ email: users.email })
        .from(accounts)
        .innerJoin(users, eq(users.id, accounts.ownerUserId))
        .where(eq(accounts.id, accountId))
        .limit(1);
      return row?.email;
    },

    /** The person's memberships with each account owner's e-mail, oldest first. */
    async listMemberships(userId: string, tx: DbOrTx = db) {
      return tx
        .select({ accountId: accountMembers.accountId, role: accountMembers.role, ownerEmail: users.email })
        .from(accountMembers)
        .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
        .innerJoin(users, eq(users.id, accounts.ownerUserId))
        .where(eq(accountMembers.userId, userId))
        .orderBy(accountMembers.createdAt);
    },

    /** The person and their memberships in one round trip: the hot path of every page load. */
    async findUserWithMemberships(userId: string, tx: DbOrTx = db) {
      const owner = alias(users, 'owner');
      const rows = await tx
        .select({ user: users, accountId: accountMembers.accountId, role: accountMembers.role, ownerEmail: owner.email })
        .from(users)
        .leftJoin(accountMembers, eq(accountMembers.userId, users.id))
        .leftJoin(accounts, eq(accounts.id, accountMembers.accountId))
        .leftJoin(owner, eq(owner.id, accounts.ownerUserId))
        .where(eq(users.id, userId))
        .orderBy(accountMembers.createdAt);
      const user = rows[0]?.user;
      if (!user) return undefined;
      const memberships = rows.flatMap((row) =>
        row.accountId && row.role && row.ownerEmail ? [{ accountId: row.accountId, role: row.role, ownerEmail: row.ownerEmail }] : [],
      );
      return { user, memberships };
    },

    async countSendsSince(email: string, since: Date, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(otpChallenges)
        .where(and(eq(otpChallenges.email, email), gt(otpChallenges.createdAt, since)));
      return row?.count ?? 0;
    },

    async latestOpenChallenge(email: string, tx: DbOrTx = db): Promise<OtpChallengeRow | undefined> {
      const [challenge] = await tx
        .select()
        .from(otpChallenges)
        .where(and(eq(otpChallenges.email, email), isNull(otpChallenges.consumedAt)))
        .orderBy(desc(otpChallenges.createdAt))
        .limit(1);
      return challenge;
    },

    /** A new challenge replaces every open one for the same e-mail. */
    async replaceChallenge(values: typeof otpChallenges.$inferInsert, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(otpChallenges)
        .set({ consumedAt: values.createdAt })
        .where(and(eq(otpChallenges.email, values.email), isNull(otpChallenges.consumedAt)));
      await tx.insert(otpChallenges).values(values);
    },

    /** Marks the challenge used; false when another request used it first. */
    async consumeChallenge(id: string, at: Date, tx: DbOrTx = db): Promise<boolean> {
      const used = await tx
        .update(otpChallenges)
        .set({ consumedAt: at })
        .where(and(eq(otpChallenges.id, id), isNull(otpChallenges.consumedAt)))
        .returning({ id: otpChallenges.id });
      return used.length === 1;
    },

    async recordAttempt(email: string, succeeded: boolean, at: Date, tx: DbOrTx = db): Promise<void> {
      await tx.insert(otpAttempts).values({ email, succeeded, createdAt: at });
    },

    /** The latest attempts, newest first. */
    async recentAttempts(email: string, limit: number, tx: DbOrTx = db) {
      return tx
        .select({ succeeded: otpAttempts.succeeded, createdAt: otpAttempts.createdAt })
        .from(otpAttempts)
        .where(eq(otpAttempts.email, email))
        .orderBy(desc(otpAttempts.seq))
        .limit(limit);
    },

    async lockedUntil(email: string, tx: DbOrTx = db): Promise<Date | undefined> {
      const [lock] = await tx.select().from(authLocks).where(eq(authLocks.email, email)).limit(1);
      return lock?.lockedUntil;
    },

    /**
     * Locks the key's row for the rest of the transaction (made, unlocked, on the first attempt) and returns its lock
     * end: one statement, and concurrent attempts on the key wait here for each other.
     */
    async lockKeyForAttempt(key: string, tx: DbOrTx = db): Promise<Date> {
      const [row] = await tx
        .insert(authLocks)
        .values({ email: key, lockedUntil: new Date(0) })
        .onConflictDoUpdate({ target: authLocks.email, set: { email: sql`excluded.email` } })
        .returning({ lockedUntil: authLocks.lockedUntil });
      return row!.lockedUntil;
    },

    async lock(email: string, until: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(authLocks)
        .values({ email, lockedUntil: until })
        .onConflictDoUpdate({ target: authLocks.email, set: { lockedUntil: until } });
    },

    async insertSession(values: typeof sessions.$inferInsert, tx: DbOrTx = db): Promise<string> {
      const [session] = await tx.insert(sessions).values(values).returning({ id: sessions.id });
      return session!.id;
    },

    async findSession(id: string, tx?: DbOrTx) {
      const [session] = tx ? await tx.select().from(sessions).where(eq(sessions.id, id)).limit(1) : await sessionById.execute({ id });
      return session;
    },

    /**
     * The session a request's access token names, with its person's current staff role (null for a customer) and, in
     * a customer view, the viewing staff member's.
     */
    async findRequestSession(id: string) {
      const [session] = await requestSessionById.execute({ id });
      return session;
    },

    /** False when the session had ended already. */
    async revokeSession(id: string, reason: string, at: Date, tx: DbOrTx = db): Promise<boolean> {
      const revoked = await tx
        .update(sessions)
        .set({ revokedAt: at, revokedReason: reason })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return revoked.length === 1;
    },

    async insertAccountAudit(values: typeof accountAuditLogs.$inferInsert, tx: DbOrTx = db): Promise<void> {
      await tx.insert(accountAuditLogs).values(values);
    },

    /** One page of an account's audit entries in [from, to), newest first. */
    async accountAuditPage(accountId: string, from: Date, to: Date, page: number, size: number, tx: DbOrTx = db) {
      const where = and(
        eq(accountAuditLogs.accountId, accountId),
        gte(accountAuditLogs.createdAt, from),
        lt(accountAuditLogs.createdAt, to),
      );
      const [total] = await tx.select({ n: count() }).from(accountAuditLogs).where(where);
      const rows = await tx
        .select()
        .from(accountAuditLogs)
        .where(where)
        .orderBy(desc(accountAuditLogs.createdAt), desc(accountAuditLogs.seq))
        .limit(size)
        .offset(page * size);
      return { rows, total: total?.n ?? 0 };
    },

    async revokeAccountSessions(userId: string, accountId: string, at: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(sessions)
        .set({ revokedAt: at, revokedReason: 'REMOVED_FROM_ACCOUNT' })
        .where(and(eq(sessions.userId, userId), eq(sessions.accountId, accountId), isNull(sessions.revokedAt)));
    },

    async insertRefreshToken(values: typeof refreshTokens.$inferInsert, tx: DbOrTx = db): Promise<void> {
      await tx.insert(refreshTokens).values(values);
    },

    async findRefreshToken(tokenHash: string, tx: DbOrTx = db) {
      const [token] = await tx.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
      return token;
    },

    /** Marks a refresh token used; false when it had been used already (a replay). */
    async useRefreshToken(id: string, at: Date, tx: DbOrTx = db): Promise<boolean> {
      const used = await tx
        .update(refreshTokens)
        .set({ usedAt: at })
        .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.usedAt)))
        .returning({ id: refreshTokens.id });
      return used.length === 1;
    },
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;

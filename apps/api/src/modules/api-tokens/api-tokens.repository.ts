import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountMemberDirectory } from '../auth/index.js';
import { apiTokens } from './api-tokens.schema.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type ApiTokenInsert = Omit<typeof apiTokens.$inferInsert, 'id' | 'revokedAt' | 'lastUsedAt' | 'lastUsedIp'>;

/** SQL for the tokens: lists and revocation are always scoped by account and creator. */
export function createApiTokensRepository(db: DbOrTx) {
  const mine = (accountId: string, userId: string) => and(eq(apiTokens.accountId, accountId), eq(apiTokens.userId, userId));

  return {
    async insert(row: ApiTokenInsert, tx: DbOrTx = db): Promise<ApiTokenRow> {
      const [inserted] = await tx.insert(apiTokens).values(row).returning();
      return inserted!;
    },

    /**
     * Inserts the token unless its creator holds `max` live ones in the account already (undefined then). The count and
     * the insert are one transaction under a lock on the creator in the account, so creates sent at once count one
     * another and never pass the limit.
     */
    async insertBelow(max: number, row: ApiTokenInsert): Promise<ApiTokenRow | undefined> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('api-tokens'), hashtext(${`${row.accountId}:${row.userId}`}))`);
        if ((await this.countLive(row.accountId, row.userId, row.createdAt, tx)) >= max) return undefined;
        return this.insert(row, tx);
      });
    },

    async countLive(accountId: string, userId: string, now: Date, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(apiTokens)
        .where(
          and(mine(accountId, userId), isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), sql`${apiTokens.expiresAt} > ${now}`)),
        );
      return row?.n ?? 0;
    },

    /** The creator's unrevoked tokens in the account, newest first (expired ones stay listed until revoked). */
    async listLive(accountId: string, userId: string, tx: DbOrTx = db): Promise<ApiTokenRow[]> {
      return tx
        .select()
        .from(apiTokens)
        .where(and(mine(accountId, userId), isNull(apiTokens.revokedAt)))
        .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
    },

    /** Revokes one of the creator's tokens; false when there is no such live token. */
    async revoke(accountId: string, userId: string, id: string, now: Date, tx: DbOrTx = db): Promise<boolean> {
      const revoked = await tx
        .update(apiTokens)
        .set({ revokedAt: now })
        .where(and(mine(accountId, userId), eq(apiTokens.id, id), isNull(apiTokens.revokedAt)))
        .returning({ id: apiTokens.id });
      return revoked.length > 0;
    },

    /** Revokes every live token of the creator in the account. */
    async revokeAll(accountId: string, userId: string, now: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(apiTokens)
        .set({ revokedAt: now })
        .where(and(mine(accountId, userId), isNull(apiTokens.revokedAt)));
    },

    /** A token by its secret's hash, with the role its creator holds in its account now (null once they left). */
    async findBySecretHash(secretHash: string, tx: DbOrTx = db): Promise<(ApiTokenRow & { creatorRole: string | null }) | undefined> {
      const [row] = await tx
        .select({ token: apiTokens, creatorRole: accountMemberDirectory.role })
        .from(apiTokens)
        .leftJoin(
          accountMemberDirectory,
          and(eq(accountMemberDirectory.accountId, apiTokens.accountId), eq(accountMemberDirectory.userId, apiTokens.userId)),
        )
        .where(eq(apiTokens.secretHash, secretHash))
        .limit(1);
      return row ? { ...row.token, creatorRole: row.creatorRole } : undefined;
    },

    /** Notes a use unless one was noted after `staleBefore`: at most one write a minute per token, however busy. */
    async noteUse(id: string, ip: string, now: Date, staleBefore: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(apiTokens)
        .set({ lastUsedAt: now, lastUsedIp: ip })
        .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, staleBefore))));
    },
  };
}
export type ApiTokensRepository = ReturnType<typeof createApiTokensRepository>;

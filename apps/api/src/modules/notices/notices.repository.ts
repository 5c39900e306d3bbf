import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountMemberDirectory } from '../auth/index.js';
import { notices } from './notices.schema.js';

export type NoticeRow = typeof notices.$inferSelect;
export type NoticeInsert = Omit<typeof notices.$inferInsert, 'id' | 'readAt'>;

/** SQL for the notices: always scoped by account and recipient. */
export function createNoticesRepository(db: DbOrTx) {
  const mine = (accountId: string, userId: string) => and(eq(notices.accountId, accountId), eq(notices.recipientUserId, userId));

  return {
    /** Writes the notices that are new; one already written under its key for that person is left as it is. */
    async insertOnce(rows: NoticeInsert[], tx: DbOrTx = db): Promise<number> {
      if (rows.length === 0) return 0;
      const written = await tx.insert(notices).values(rows).onConflictDoNothing().returning({ id: notices.id });
      return written.length;
    },

    /** The account's owner (who the customer mails go to). */
    async ownerOf(accountId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx
        .select({ userId: accountMemberDirectory.userId })
        .from(accountMemberDirectory)
        .where(and(eq(accountMemberDirectory.accountId, accountId), eq(accountMemberDirectory.role, 'ACCOUNT_OWNER')))
        .limit(1);
      return row?.userId;
    },

    async page(accountId: string, userId: string, page: number, size: number, tx: DbOrTx = db): Promise<NoticeRow[]> {
      return tx
        .select()
        .from(notices)
        .where(mine(accountId, userId))
        .orderBy(desc(notices.createdAt), desc(notices.id))
        .limit(size)
        .offset(page * size);
    },

    async counts(accountId: string, userId: string, tx: DbOrTx = db): Promise<{ total: number; unread: number }> {
      const [all] = await tx.select({ n: count() }).from(notices).where(mine(accountId, userId));
      const [unread] = await tx
        .select({ n: count() })
        .from(notices)
        .where(and(mine(accountId, userId), isNull(notices.readAt)));
      return { total: all?.n ?? 0, unread: unread?.n ?? 0 };
    },

    /** Marks the person's unread notices read: the ones named (others' ids match nothing), or all. */
    async markRead(accountId: string, userId: string, ids: string[] | 'all', at: Date, tx: DbOrTx = db): Promise<number> {
      const scope = and(mine(accountId, userId), isNull(notices.readAt), ids === 'all' ? undefined : inArray(notices.id, ids));
      const marked = await tx.update(notices).set({ readAt: at }).where(scope).returning({ id: notices.id });
      return marked.length;
    },
  };
}
export type NoticesRepository = ReturnType<typeof createNoticesRepository>;

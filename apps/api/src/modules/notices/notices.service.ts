import type { NoticeKind } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { DbOrTx } from '../../db/client.js';
import type { NoticesRepository } from './notices.repository.js';

/** A notice to write: who it is for (the account's owner unless named), what it says and the key it is written once under. */
export interface NoticeDraft {
  accountId: string;
  kind: NoticeKind;
  title: string;
  body: string;
  /** A console path, e.g. /subscriptions/{id}. */
  link?: string | null;
  /** The subscription the notice is about, if any: what the account's webhooks send as its subscription_id. */
  subscriptionId?: string | null;
  /** The same key for the same event: writing it again (a retried job) adds nothing. */
  key: string;
  /** The people it is for; the account's owner when left out. */
  recipientUserIds?: string[];
}

/** Told of each notice as it is written, in the same transaction; its key tells a replayed write apart. */
export type NoticeListener = (draft: NoticeDraft, tx?: DbOrTx) => Promise<void>;

/** A notice as the module hands it out. */
export interface NoticeValue {
  id: string;
  kind: NoticeKind;
  title: string;
  body: string;
  link: string | null;
  createdAt: Date;
  readAt: Date | null;
}

export interface NoticePageValues {
  items: NoticeValue[];
  totalPages: number;
  unread: number;
}

/**
 * The notices a person reads in the console: written by the modules that mail a customer, in the same transaction as
 * the mail's decision, once per key and person; read and marked read only by that person in that account.
 */
export function createNoticesService(deps: { repository: NoticesRepository; clock: Clock }) {
  const { repository, clock } = deps;
  // Who else hears of each notice, in its transaction (the account's webhooks, attached by services.ts).
  const listeners: NoticeListener[] = [];

  return {
    /** Adds a step run with every notice written, in the writer's transaction (the wiring attaches the webhooks here). */
    attachListener(listener: NoticeListener): void {
      listeners.push(listener);
    },

    /** Writes the notice for each recipient that has not had it under this key; answers how many were new. */
    async write(draft: NoticeDraft, tx?: DbOrTx): Promise<number> {
      for (const listener of listeners) await listener(draft, tx);
      const owner = draft.recipientUserIds ? undefined : await repository.ownerOf(draft.accountId, tx);
      const recipients = [...new Set(draft.recipientUserIds ?? (owner ? [owner] : []))];
      const createdAt = clock.now();
      return repository.insertOnce(
        recipients.map((recipientUserId) => ({
          accountId: draft.accountId,
          recipientUserId,
          kind: draft.kind,
          title: draft.title,
          body: draft.body,
          link: draft.link ?? null,
          dedupeKey: draft.key,
          createdAt,
        })),
        tx,
      );
    },

    /** The person's notices in the account, newest first, with how many are unread. */
    async list(accountId: string, userId: string, page: number, size: number): Promise<NoticePageValues> {
      const [rows, counts] = await Promise.all([repository.page(accountId, userId, page, size), repository.counts(accountId, userId)]);
      return {
        items: rows.map((row) => ({
          id: row.id,
          kind: row.kind as NoticeKind,
          title: row.title,
          body: row.body,
          link: row.link,
          createdAt: row.createdAt,
          readAt: row.readAt,
        })),
        totalPages: Math.ceil(counts.total / size),
        unread: counts.unread,
      };
    },

    /** Marks the person's own notices read (ids of anyone else's match nothing), or all of them. */
    async markRead(accountId: string, userId: string, ids: string[] | 'all'): Promise<{ marked: number; unread: number }> {
      const marked = await repository.markRead(accountId, userId, ids, clock.now());
      const { unread } = await repository.counts(accountId, userId);
      return { marked, unread };
    },
  };
}
export type NoticesService = ReturnType<typeof createNoticesService>;

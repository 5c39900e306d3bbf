import { MESSAGES } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { LedgerEntryRow, LedgerRepository, NewLedgerEntry } from './ledger.repository.js';

export const ENTRY_KINDS = [
  'PURCHASE',
  'FREE_CREDIT_GRANT',
  'CREDIT_EXPIRY',
  'ADMIN_FUNDS',
  'USAGE',
  'REFUND',
  'TRANSFER_OUT',
  'TRANSFER_IN',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export interface PostResult {
  entry: LedgerEntryRow;
  /** True when the idempotency key had been posted before: nothing changed this time. */
  duplicate: boolean;
}

export interface Posting {
  subscriptionId: string;
  amountCents: number;
  /** Unique across the whole ledger: posting the same key again returns the first entry and changes nothing. */
  idempotencyKey: string;
  description?: string;
  remark?: string;
  actorUserId?: string | null;
}

export interface OpenGrant {
  entryId: string;
  remainingCents: number;
  expiresAt: Date;
}

/** What an operation decides once the subscription is locked and its due credits have expired. */
export interface Draft {
  kind: EntryKind;
  category: string;
  /** Signed change of the balance. */
  amountCents: number;
  description: string;
  refundOfEntryId?: string;
  /** Writes that belong with the entry (grant rows, allocations) once it exists. */
  after?: (entry: LedgerEntryRow, tx: Tx) => Promise<void>;
}

export interface Locked {
  accountId: string;
  balanceCents: number;
  openGrants: OpenGrant[];
  now: Date;
  /** The transaction holding the lock: every read inside an operation goes through it. */
  tx: Tx;
}

/** The ledger row of a posting as its draft decided it, with the balance after it. */
function entryValues(
  subscriptionId: string,
  posting: Posting,
  draft: Omit<Draft, 'after'>,
  balanceAfterCents: number,
  now: Date,
): NewLedgerEntry {
  return {
    subscriptionId,
    kind: draft.kind,
    category: draft.category,
    amountCents: draft.amountCents,
    balanceAfterCents,
    idempotencyKey: posting.idempotencyKey,
    description: posting.description ?? draft.description,
    remark: posting.remark ?? '',
    refundOfEntryId: draft.refundOfEntryId ?? null,
    createdByUserId: posting.actorUserId ?? null,
    createdAt: now,
  };
}

function assertCents(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed, { amount: MESSAGES.validationFailed });
  }
}

/**
 * How every balance change is written: under the subscription's row lock, a known idempotency key replayed, due
 * free credits expired first, then the operation's entry and the new balance, all in one transaction.
 */
export function createPosting(deps: { db: Database; repository: LedgerRepository; clock: Clock }) {
  const { db, repository, clock } = deps;
  const inTransaction = <T>(tx: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> => (tx ? work(tx) : db.transaction(work));

  /** Expires the locked subscription's grants whose time has come; returns the new balance and the grants still open. */
  async function expireDue(subscriptionId: string, balanceCents: number, now: Date, tx: Tx) {
    let balance = balanceCents;
    const open: OpenGrant[] = [];
    for (const grant of await repository.openGrants(subscriptionId, tx)) {
      if (grant.expiresAt.getTime() > now.getTime()) {
        open.push(grant);
        continue;
      }
      if (grant.remainingCents > 0) {
        balance -= grant.remainingCents;
        const entry = await repository.insertEntry(
          {
            subscriptionId,
            kind: 'CREDIT_EXPIRY',
            category: 'CREDITS_EXPIRED',
            amountCents: -grant.remainingCents,
            balanceAfterCents: balance,
            idempotencyKey: `credit-expiry:${grant.entryId}`,
            description: 'Unused free credits expired',
            createdAt: now,
          },
          tx,
        );
        // The grant is still open, so its expiry cannot have been posted: a missing row means a broken invariant.
        if (!entry) throw new Error(`credit expiry for grant ${grant.entryId} exists while the grant is open`);
        await repository.insertAllocations([{ entryId: entry.id, grantEntryId: grant.entryId, amountCents: grant.remainingCents }], tx);
      }
      await repository.markGrantExpired(grant.entryId, now, tx);
    }
    return { balance, open };
  }

  /** Locks, replays a known key, expires due credits, then writes the operation's entry and the new balance. */
  async function post(posting: Posting, expectedKind: EntryKind, decide: (locked: Locked) => Promise<Draft>, tx?: Tx): Promise<PostResult> {
    assertCents(posting.amountCents);
    return inTransaction(tx, async (tx) => {
      const subscription = await repository.lockSubscription(posting.subscriptionId, tx);
      if (!subscription) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);

      const existing = await repository.findEntryByKey(posting.idempotencyKey, tx);
      if (existing) {
        if (existing.subscriptionId !== posting.subscriptionId || existing.kind !== expectedKind) {
          throw conflict('IDEMPOTENCY_KEY_REUSED', MESSAGES.idempotencyKeyReused);
        }
        return { entry: existing, duplicate: true };
      }

      const now = clock.now();
      const { balance, open } = await expireDue(subscription.id, subscription.balanceCents, now, tx);
      const draft = await decide({ accountId: subscription.accountId, balanceCents: balance, openGrants: open, now, tx });
      const balanceAfter = balance + draft.amountCents;
      const entry = await repository.insertEntry(entryValues(subscription.id, posting, draft, balanceAfter, now), tx);
      // Only a concurrent posting of the same key on another subscription gets here; this one rolls back.
      if (!entry) throw conflict('IDEMPOTENCY_KEY_REUSED', MESSAGES.idempotencyKeyReused);
      await draft.after?.(entry, tx);
      await repository.setBalance(subscription.id, balanceAfter, tx);
      return { entry, duplicate: false };
    });
  }

  /**
   * Several postings of one kind to one subscription at once, in the caller's transaction: one lock, one key lookup,
   * due credits expired once, the new entries in one statement (each with its running balance) and the balance
   * written once. The same rules as `post`, one after another in the order given; a key already posted (or repeated
   * in the list) is answered with its entry as a duplicate. Draft `after` writes are not supported here.
   */
  async function postMany(
    subscriptionId: string,
    postings: Posting[],
    expectedKind: EntryKind,
    draftOf: (posting: Posting) => Omit<Draft, 'after'>,
    tx: Tx,
  ): Promise<PostResult[]> {
    for (const posting of postings) {
      assertCents(posting.amountCents);
      if (posting.subscriptionId !== subscriptionId) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
    }
    const subscription = await repository.lockSubscription(subscriptionId, tx);
    if (!subscription) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
    const posted = new Map<string, LedgerEntryRow>();
    for (const existing of await repository.findEntriesByKeys([...new Set(postings.map((p) => p.idempotencyKey))], tx)) {
      if (existing.subscriptionId !== subscriptionId || existing.kind !== expectedKind) {
        throw conflict('IDEMPOTENCY_KEY_REUSED', MESSAGES.idempotencyKeyReused);
      }
      posted.set(existing.idempotencyKey, existing);
    }
    const now = clock.now();
    let { balance } = await expireDue(subscriptionId, subscription.balanceCents, now, tx);
    const fresh: NewLedgerEntry[] = [];
    const freshKeys = new Set<string>();
    for (const posting of postings) {
      if (posted.has(posting.idempotencyKey) || freshKeys.has(posting.idempotencyKey)) continue;
      freshKeys.add(posting.idempotencyKey);
      const draft = draftOf(posting);
      balance += draft.amountCents;
      fresh.push(entryValues(subscriptionId, posting, draft, balance, now));
    }
    const inserted = await repository.insertEntries(fresh, tx);
    // Only a concurrent posting of one of the keys on another subscription gets here; the caller's transaction rolls back.
    if (inserted.length !== fresh.length) throw conflict('IDEMPOTENCY_KEY_REUSED', MESSAGES.idempotencyKeyReused);
    if (fresh.length > 0) await repository.setBalance(subscriptionId, balance, tx);
    const created = new Map(inserted.map((entry) => [entry.idempotencyKey, entry]));
    const answered = new Set<string>();
    return postings.map(({ idempotencyKey: key }) => {
      const entry = created.get(key);
      const first = entry !== undefined && !answered.has(key);
      answered.add(key);
      return { entry: (entry ?? posted.get(key))!, duplicate: !first };
    });
  }

  return { inTransaction, expireDue, post, postMany };
}
export type LedgerPosting = ReturnType<typeof createPosting>;

import { FREE_CREDIT_VALIDITY_DAYS, MESSAGES, isAdminFundCategory, type AdminFundCategory } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { DAY } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { badRequest, businessRule, conflict, notFound } from '../../errors.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import type { LedgerEntryRow, LedgerRepository, NewLedgerEntry } from './ledger.repository.js';
import { planCreditSpend } from './spend-plan.js';

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

export const LEDGER_EXPIRE_QUEUE = 'ledger-expire-credits';
const EXPIRY_BATCH = 200;

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

interface OpenGrant {
  entryId: string;
  remainingCents: number;
  expiresAt: Date;
}

/** What an operation decides once the subscription is locked and its due credits have expired. */
interface Draft {
  kind: EntryKind;
  category: string;
  /** Signed change of the balance. */
  amountCents: number;
  description: string;
  refundOfEntryId?: string;
  /** Writes that belong with the entry (grant rows, allocations) once it exists. */
  after?: (entry: LedgerEntryRow, tx: Tx) => Promise<void>;
}

interface Locked {
  accountId: string;
  balanceCents: number;
  openGrants: OpenGrant[];
  now: Date;
  /** The transaction holding the lock: every read inside an operation goes through it. */
  tx: Tx;
}

function assertCents(amountCents: number): void {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed, { amount: MESSAGES.validationFailed });
  }
}

/**
 * The one owner of balances. Every change is an append-only entry with a unique idempotency key, made in
 * one transaction that holds the subscription's row lock, so the stored balance always equals the sum of
 * its entries. Free credits are spent before paid funds, earliest-expiring first, and expire after 30 days.
 */
export function createLedger(deps: { db: Database; ledgerRepository: LedgerRepository; clock: Clock }) {
  const { db, ledgerRepository: repo, clock } = deps;
  const inTransaction = <T>(tx: Tx | undefined, work: (tx: Tx) => Promise<T>): Promise<T> => (tx ? work(tx) : db.transaction(work));

  /** Expires the locked subscription's grants whose time has come; returns the new balance and the grants still open. */
  async function expireDue(subscriptionId: string, balanceCents: number, now: Date, tx: Tx) {
    let balance = balanceCents;
    const open: OpenGrant[] = [];
    for (const grant of await repo.openGrants(subscriptionId, tx)) {
      if (grant.expiresAt.getTime() > now.getTime()) {
        open.push(grant);
        continue;
      }
      if (grant.remainingCents > 0) {
        balance -= grant.remainingCents;
        const entry = await repo.insertEntry(
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
        await repo.insertAllocations([{ entryId: entry.id, grantEntryId: grant.entryId, amountCents: grant.remainingCents }], tx);
      }
      await repo.markGrantExpired(grant.entryId, now, tx);
    }
    return { balance, open };
  }

  /** Locks, replays a known key, expires due credits, then writes the operation's entry and the new balance. */
  async function post(posting: Posting, expectedKind: EntryKind, decide: (locked: Locked) => Promise<Draft>, tx?: Tx): Promise<PostResult> {
    assertCents(posting.amountCents);
    return inTransaction(tx, async (tx) => {
      const subscription = await repo.lockSubscription(posting.subscriptionId, tx);
      if (!subscription) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);

      const existing = await repo.findEntryByKey(posting.idempotencyKey, tx);
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
      const values: NewLedgerEntry = {
        subscriptionId: subscription.id,
        kind: draft.kind,
        category: draft.category,
        amountCents: draft.amountCents,
        balanceAfterCents: balanceAfter,
        idempotencyKey: posting.idempotencyKey,
        description: posting.description ?? draft.description,
        remark: posting.remark ?? '',
        refundOfEntryId: draft.refundOfEntryId ?? null,
        createdByUserId: posting.actorUserId ?? null,
        createdAt: now,
      };
      const entry = await repo.insertEntry(values, tx);
      // Only a concurrent posting of the same key on another subscription gets here; this one rolls back.
      if (!entry) throw conflict('IDEMPOTENCY_KEY_REUSED', MESSAGES.idempotencyKeyReused);
      await draft.after?.(entry, tx);
      await repo.setBalance(subscription.id, balanceAfter, tx);
      return { entry, duplicate: false };
    });
  }

  return {
    /** The account's money settings row; created with its first subscription. */
    ensureAccount: (accountId: string, tx?: Tx) => repo.ensureAccount(accountId, clock.now(), tx),
    lockAccount: (accountId: string, tx: Tx) => repo.lockAccount(accountId, tx),
    overdueLimit: (accountId: string, tx?: Tx) => repo.overdueLimit(accountId, tx),

    async setOverdueLimit(accountId: string, limitCents: number, tx?: Tx): Promise<void> {
      if (!Number.isSafeInteger(limitCents) || limitCents < 0) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      await inTransaction(tx, async (tx) => {
        await repo.ensureAccount(accountId, clock.now(), tx);
        await repo.setOverdueLimit(accountId, limitCents, tx);
      });
    },

    /** A card payment the payment provider confirmed. */
    postPurchase: (posting: Posting, tx?: Tx) =>
      post(
        posting,
        'PURCHASE',
        async () => ({ kind: 'PURCHASE', category: 'PURCHASED', amountCents: posting.amountCents, description: 'Funds added by card' }),
        tx,
      ),

    /** Free credits that expire after `validDays` (30 unless told). */
    grantFreeCredits: async (posting: Posting & { validDays?: number }, tx?: Tx): Promise<PostResult> => {
      const validDays = posting.validDays ?? FREE_CREDIT_VALIDITY_DAYS;
      if (!Number.isInteger(validDays) || validDays < 1) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      return post(
        posting,
        'FREE_CREDIT_GRANT',
        async ({ now }) => ({
          kind: 'FREE_CREDIT_GRANT',
          category: 'FREE_CREDITS',
          amountCents: posting.amountCents,
          description: 'Free credits',
          after: async (entry, tx) =>
            repo.insertGrant(
              {
                entryId: entry.id,
                subscriptionId: posting.subscriptionId,
                amountCents: posting.amountCents,
                remainingCents: posting.amountCents,
                expiresAt: new Date(now.getTime() + validDays * DAY),
              },
              tx,
            ),
        }),
        tx,
      );
    },

    /** Funds staff add, with the reason as its category (e.g. REFUND_MAINTENANCE_COST). They do not expire. */
    addAdminFunds: async (posting: Posting & { category: AdminFundCategory }, tx?: Tx): Promise<PostResult> => {
      if (!isAdminFundCategory(posting.category)) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      return post(
        posting,
        'ADMIN_FUNDS',
        async () => ({
          kind: 'ADMIN_FUNDS',
          category: posting.category,
          amountCents: posting.amountCents,
          description: 'Funds added by Kumo Cloud',
        }),
        tx,
      );
    },

    /**
     * Metered usage: unexpired free credits first (earliest-expiring first), then paid funds, down to minus the overdue
     * limit. `usedAlready`: the hours were used and must be recorded even past that limit (metering; the overdue guard
     * then stops the clusters).
     */
    debitUsage: (posting: Posting & { usedAlready?: boolean }, tx?: Tx) =>
      post(
        posting,
        'USAGE',
        async ({ accountId, balanceCents, openGrants, now, tx }) => {
          const limit = await repo.overdueLimit(accountId, tx);
          if (!posting.usedAlready && balanceCents - posting.amountCents < -limit) {
            throw businessRule('INSUFFICIENT_FUNDS', MESSAGES.insufficientFunds);
          }
          const plan = planCreditSpend(openGrants, posting.amountCents, now);
          return {
            kind: 'USAGE',
            category: 'USAGE',
            amountCents: -posting.amountCents,
            description: 'Service usage',
            after: async (entry, tx) => {
              await repo.insertAllocations(
                plan.allocations.map((allocation) => ({ entryId: entry.id, ...allocation })),
                tx,
              );
              for (const allocation of plan.allocations) {
                const grant = openGrants.find((open) => open.entryId === allocation.grantEntryId)!;
                await repo.setGrantRemaining(grant.entryId, grant.remainingCents - allocation.amountCents, tx);
              }
            },
          };
        },
        tx,
      ),

    /** Returns paid money of one purchase to the card: never more than it paid, nor more than paid funds left unspent. */
    refund: (posting: Posting & { purchaseEntryId: string }, tx?: Tx) =>
      post(
        posting,
        'REFUND',
        async ({ balanceCents, openGrants, tx }) => {
          const purchase = await repo.findEntry(posting.purchaseEntryId, tx);
          if (!purchase || purchase.subscriptionId !== posting.subscriptionId || purchase.kind !== 'PURCHASE') {
            throw notFound('NOT_FOUND', MESSAGES.transactionNotFound);
          }
          const refunded = await repo.refundedFrom(purchase.id, tx);
          const credits = openGrants.reduce((sum, grant) => sum + grant.remainingCents, 0);
          const paidFunds = balanceCents - credits;
          if (posting.amountCents > purchase.amountCents - refunded || posting.amountCents > paidFunds) {
            throw businessRule('REFUND_NOT_ALLOWED', MESSAGES.refundNotAllowed);
          }
          return {
            kind: 'REFUND',
            category: 'REFUND',
            amountCents: -posting.amountCents,
            description: 'Refund to card',
            refundOfEntryId: purchase.id,
          };
        },
        tx,
      ),

    /**
     * Moves a subscription's paid funds (never its free credits, which cannot leave the subscription they were
     * granted to) to another subscription: both entries in one transaction under both row locks, taken in id
     * order so two opposite transfers cannot deadlock. The key makes a retry move nothing twice.
     * Returns the cents moved (0 when there were no paid funds).
     */
    async transferPaidFunds(
      transfer: { fromSubscriptionId: string; toSubscriptionId: string; idempotencyKey: string; actorUserId?: string | null },
      tx?: Tx,
    ): Promise<{ amountCents: number; duplicate: boolean }> {
      const { fromSubscriptionId: from, toSubscriptionId: to, idempotencyKey: key } = transfer;
      if (from === to) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      return inTransaction(tx, async (tx) => {
        for (const id of [from, to].sort()) {
          if (!(await repo.lockSubscription(id, tx))) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
        }
        const done = await repo.findEntryByKey(`${key}:out`, tx);
        if (done) return { amountCents: -done.amountCents, duplicate: true };
        const source = (await repo.lockSubscription(from, tx))!;
        const { balance, open } = await expireDue(from, source.balanceCents, clock.now(), tx);
        if (balance !== source.balanceCents) await repo.setBalance(from, balance, tx);
        const paidCents = balance - open.reduce((sum, grant) => sum + grant.remainingCents, 0);
        if (paidCents <= 0) return { amountCents: 0, duplicate: false };
        const common = { amountCents: paidCents, actorUserId: transfer.actorUserId ?? null };
        await post(
          { ...common, subscriptionId: from, idempotencyKey: `${key}:out` },
          'TRANSFER_OUT',
          async () => ({
            kind: 'TRANSFER_OUT',
            category: 'TRANSFER_OUT',
            amountCents: -paidCents,
            description: 'Paid funds moved to another subscription',
          }),
          tx,
        );
        await post(
          { ...common, subscriptionId: to, idempotencyKey: `${key}:in` },
          'TRANSFER_IN',
          async () => ({
            kind: 'TRANSFER_IN',
            category: 'TRANSFER_IN',
            amountCents: paidCents,
            description: 'Paid funds moved from another subscription',
          }),
          tx,
        );
        return { amountCents: paidCents, duplicate: false };
      });
    },

    /** Paid funds of a subscription: its balance less unexpired free credits (0 or less when it owes). */
    async paidFunds(subscriptionId: string, tx?: Tx): Promise<number> {
      return inTransaction(tx, async (tx) => {
        const subscription = await repo.lockSubscription(subscriptionId, tx);
        if (!subscription) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
        const { balance, open } = await expireDue(subscription.id, subscription.balanceCents, clock.now(), tx);
        if (balance !== subscription.balanceCents) await repo.setBalance(subscription.id, balance, tx);
        return balance - open.reduce((sum, grant) => sum + grant.remainingCents, 0);
      });
    },

    /** Runs the expiry of every grant that is due (the scheduled job); returns how many subscriptions it touched. */
    async expireDueCredits(): Promise<number> {
      let touched = 0;
      for (;;) {
        const due = await repo.subscriptionsWithDueGrants(clock.now(), EXPIRY_BATCH);
        for (const subscriptionId of due) {
          await db.transaction(async (tx) => {
            const subscription = await repo.lockSubscription(subscriptionId, tx);
            if (!subscription) return;
            const { balance } = await expireDue(subscription.id, subscription.balanceCents, clock.now(), tx);
            if (balance !== subscription.balanceCents) await repo.setBalance(subscription.id, balance, tx);
          });
        }
        touched += due.length;
        if (due.length < EXPIRY_BATCH) return touched;
      }
    },

    /**
     * The history the ledger keeps for a subscription: its newest `limit` entries other than card purchases
     * (billing lists those from its own purchases, in any status), and how many such entries there are.
     */
    history: (subscriptionId: string, limit: number, tx?: Tx) => repo.historyEntries(subscriptionId, limit, tx),

    /** One entry of the account's subscriptions (a receipt's balance, or why a transaction has no receipt). */
    entryOfAccount: (accountId: string, entryId: string, tx?: Tx) => repo.findEntryForAccount(accountId, entryId, tx),

    /** Each free-credit grant still to spend (the same credits `summaries` adds up), earliest-expiring first. */
    freeCreditGrants: (subscriptionId: string, tx?: Tx) => repo.spendableGrants(subscriptionId, clock.now(), tx),

    /** Unexpired free credits, their next expiry and this month's usage per subscription. */
    async summaries(subscriptionIds: string[], tx?: Tx) {
      const now = clock.now();
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const [credits, usage] = await Promise.all([
        repo.creditSummaries(subscriptionIds, now, tx),
        repo.usageBetween(subscriptionIds, monthStart, now, tx),
      ]);
      return new Map(
        subscriptionIds.map((id) => {
          const credit = credits.find((row) => row.subscriptionId === id);
          const used = usage.find((row) => row.subscriptionId === id);
          return [
            id,
            {
              freeCreditsCents: Number(credit?.creditsCents ?? 0),
              nextCreditExpiry: credit?.nextExpiry ? new Date(credit.nextExpiry) : null,
              consumedThisMonthCents: Number(used?.usedCents ?? 0),
            },
          ];
        }),
      );
    },
  };
}
export type Ledger = ReturnType<typeof createLedger>;

export function ledgerJobs(ledger: Ledger): JobDefinition[] {
  return [
    {
      queue: LEDGER_EXPIRE_QUEUE,
      retryLimit: 0,
      retryDelaySeconds: 60,
      // Every minute: balances drop by expired credits within a minute even when nothing else touches them.
      schedule: '* * * * *',
      handler: async () => {
        await ledger.expireDueCredits();
      },
    },
  ];
}

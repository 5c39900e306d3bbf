import { type TransactionCategory, type TransactionStatus } from '@kumo/contract';
import type { Ledger } from '../ledger/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import type { BillingRepository } from './billing.repository.js';

/** One line of a subscription's history: a card purchase, or an entry of the ledger. */
export interface TransactionRecord {
  id: string;
  /** Set once a card payment succeeded. */
  receiptId: string | null;
  at: Date;
  category: TransactionCategory;
  type: 'CREDIT' | 'DEBIT';
  description: string;
  remark: string;
  /** Signed: money in is positive, money out negative. */
  amountCents: number;
  status: TransactionStatus;
}

/** A subscription's history, newest first: billing's purchases merged with the ledger's entries. */
export function createTransactionHistory(deps: {
  repository: Pick<BillingRepository, 'historyPurchases'>;
  ledger: Pick<Ledger, 'history'>;
  subscriptions: Pick<SubscriptionsService, 'requireOwned'>;
}) {
  const { repository, ledger, subscriptions } = deps;
  return async function transactions(
    accountId: string,
    subscriptionId: string,
    page: number,
    size: number,
  ): Promise<{ rows: TransactionRecord[]; totalPages: number }> {
    await subscriptions.requireOwned(accountId, subscriptionId);
    // Purchases (here) and ledger entries (the ledger's) share one sequence: the newest (page+1)*size of
    // each, merged by it, hold the page exactly.
    const limit = (page + 1) * size;
    const [bought, kept] = await Promise.all([repository.historyPurchases(subscriptionId, limit), ledger.history(subscriptionId, limit)]);
    const entries = kept.rows.map((entry) => ({ ...entry, receiptId: null, status: 'SUCCESSFUL' }));
    const rows = [...bought.rows, ...entries].sort((a, b) => b.seq - a.seq).slice(page * size, limit);
    const total = bought.total + kept.total;
    return {
      rows: rows.map((row) => ({
        id: row.id,
        receiptId: row.receiptId,
        at: row.createdAt,
        category: row.category as TransactionCategory,
        type: row.amountCents >= 0 ? 'CREDIT' : 'DEBIT',
        description: row.description,
        remark: row.remark,
        amountCents: row.amountCents,
        status: row.status as TransactionStatus,
      })),
      totalPages: Math.ceil(total / size),
    };
  };
}

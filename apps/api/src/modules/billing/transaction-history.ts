import {
  TRANSACTION_KIND_CATEGORIES,
  UNPAID_CHECKOUTS_SHOWN,
  type TransactionCategory,
  type TransactionKind,
  type TransactionStatus,
} from '@kumo/contract';
import type { Ledger } from '../ledger/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import type { BillingRepository, HistoryRow } from './billing.repository.js';

/** One line of a subscription's history: an entry of the ledger (a paid purchase named by its purchase), or a checkout not paid. */
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
  /** The balance just after the entry; null for a checkout not paid, which moved no money. */
  balanceAfterCents: number | null;
  status: TransactionStatus;
}

export interface TransactionHistoryPage {
  rows: TransactionRecord[];
  totalPages: number;
  unpaidCheckouts: TransactionRecord[];
}

const fromCheckout = (row: HistoryRow): TransactionRecord => ({
  id: row.id,
  receiptId: row.receiptId,
  at: row.createdAt,
  category: row.category as TransactionCategory,
  type: 'CREDIT',
  description: row.description,
  remark: row.remark,
  amountCents: row.amountCents,
  balanceAfterCents: null,
  status: row.status as TransactionStatus,
});

/**
 * A subscription's history, newest first: the ledger's entries, each with the balance after it, so the running balance
 * is the ledger's own to the cent; and, apart, its checkouts that moved no money (they never touch a balance).
 */
export function createTransactionHistory(deps: {
  repository: Pick<BillingRepository, 'paidPurchasesOfEntries' | 'unpaidCheckouts'>;
  ledger: Pick<Ledger, 'history'>;
  subscriptions: Pick<SubscriptionsService, 'requireOwned'>;
}) {
  const { repository, ledger, subscriptions } = deps;
  return async function transactions(
    accountId: string,
    subscriptionId: string,
    page: number,
    size: number,
    kind?: TransactionKind,
  ): Promise<TransactionHistoryPage> {
    await subscriptions.requireOwned(accountId, subscriptionId);
    const categories = kind ? TRANSACTION_KIND_CATEGORIES[kind] : undefined;
    // Checkouts are top-ups: they stay out of any other kind's history.
    const withCheckouts = !kind || kind === 'TOP_UPS';
    const [entries, unpaid] = await Promise.all([
      ledger.history(subscriptionId, { offset: page * size, limit: size, categories }),
      withCheckouts ? repository.unpaidCheckouts(subscriptionId, UNPAID_CHECKOUTS_SHOWN) : [],
    ]);
    // A paid purchase keeps its purchase's id (its receipt is asked for by it), receipt number and wording.
    const purchases = await repository.paidPurchasesOfEntries(entries.rows.filter((e) => e.kind === 'PURCHASE').map((e) => e.id));
    const purchaseOf = new Map(purchases.map((p) => [p.ledgerEntryId, p]));
    return {
      rows: entries.rows.map((entry) => {
        const purchase = purchaseOf.get(entry.id);
        return {
          id: purchase?.id ?? entry.id,
          receiptId: purchase?.receiptId ?? null,
          at: entry.createdAt,
          category: entry.category as TransactionCategory,
          type: entry.amountCents >= 0 ? 'CREDIT' : 'DEBIT',
          description: purchase?.description ?? entry.description,
          remark: purchase?.remark ?? entry.remark,
          amountCents: entry.amountCents,
          balanceAfterCents: entry.balanceAfterCents,
          status: 'SUCCESSFUL',
        };
      }),
      totalPages: Math.ceil(entries.total / size),
      unpaidCheckouts: unpaid.map(fromCheckout),
    };
  };
}

/** How billing's values are shown on the wire: dollars, ISO dates and the specification's field names. */
import { centsToAmount, type Statement, type Transaction, type TransactionPage } from '@kumo/contract';
import { movementsCents, type StatementValues } from './statements.js';
import type { TransactionHistoryPage, TransactionRecord } from './transaction-history.js';

export function toTransactionWire(record: TransactionRecord): Transaction {
  return {
    transaction_id: record.id,
    receipt_id: record.receiptId,
    transaction_date: record.at.toISOString(),
    category: record.category,
    type: record.type,
    description: record.description,
    remark: record.remark,
    amount: centsToAmount(record.amountCents),
    balance_after: record.balanceAfterCents === null ? null : centsToAmount(record.balanceAfterCents),
    transaction_status: record.status,
  };
}

/** A page of a subscription's history, for the customer's and the staff's transaction screens. */
export function toTransactionPageWire(page: TransactionHistoryPage): TransactionPage {
  return {
    content: page.rows.map(toTransactionWire),
    totalPages: page.totalPages,
    unpaid_checkouts: page.unpaidCheckouts.map(toTransactionWire),
  };
}

/** A monthly statement on the wire (GET /api/subscription/statement/{id}?format=json). */
export function toStatementWire(s: StatementValues): Statement {
  const date = (at: Date) => at.toISOString();
  return {
    subscription_id: s.subscriptionId,
    subscription_name: s.subscriptionName,
    account_owner: { name: s.owner.name, email: s.owner.email },
    month: s.month,
    currency: 'USD',
    opening_balance: centsToAmount(s.openingCents),
    top_ups: s.topUps.map((t) => ({
      date: date(t.at),
      amount: centsToAmount(t.amountCents),
      method: t.automatic ? 'AUTOMATIC' : 'CARD',
      receipt_id: t.detail,
    })),
    staff_additions: s.staffAdditions.map((t) => ({ date: date(t.at), amount: centsToAmount(t.amountCents), reason: t.detail })),
    free_credits_granted: s.creditsGranted.map((t) => ({ date: date(t.at), amount: centsToAmount(t.amountCents), expires: t.detail })),
    free_credits_expired: s.creditsExpired.map((t) => ({ date: date(t.at), amount: centsToAmount(t.amountCents) })),
    refunds: s.refunds.map((t) => ({ date: date(t.at), amount: centsToAmount(t.amountCents), remark: t.detail })),
    transfers: s.transfers.map((t) => ({ date: date(t.at), amount: centsToAmount(t.amountCents), direction: t.direction })),
    usage: {
      total: centsToAmount(s.usageCents),
      by_cluster: s.usageByCluster.map((c) => ({
        cluster_id: c.clusterId,
        cluster_name: c.clusterName,
        amount: centsToAmount(c.amountCents),
        services: c.services.map((x) => ({ dimension: x.dimension, amount: centsToAmount(x.amountCents) })),
      })),
      earlier_months: s.earlierUsage.map((u) => ({ month: u.month, amount: centsToAmount(u.amountCents) })),
      posted_later: centsToAmount(s.postedLaterCents),
    },
    movements: centsToAmount(movementsCents(s)),
    closing_balance: centsToAmount(s.closingCents),
  };
}

/** How billing's values are shown on the wire: dollars, ISO dates and the specification's field names. */
import { centsToAmount, type Transaction, type TransactionPage } from '@kumo/contract';
import type { TransactionRecord } from './transaction-history.js';

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
    transaction_status: record.status,
  };
}

/** A page of a subscription's history, for the customer's and the staff's transaction screens. */
export function toTransactionPageWire(page: { rows: TransactionRecord[]; totalPages: number }): TransactionPage {
  return { content: page.rows.map(toTransactionWire), totalPages: page.totalPages };
}

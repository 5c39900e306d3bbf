import type { Tx } from '../../db/client.js';
import type { Ledger } from '../ledger/index.js';
import type { BillingRepository } from './billing.repository.js';

/** The event name of a purchase made by automatic top-up: the history calls it so, and it has a receipt like any card payment. */
export const AUTO_TOP_UP_EVENT = 'AUTO_TOP_UP';

export interface AutomaticPurchase {
  accountId: string;
  subscriptionId: string;
  /** The account owner, in whose name the saved card pays. */
  userId: string;
  amountCents: number;
  currency: string;
  /** The ledger's idempotency key: the same charge is credited once, however often it is reported. */
  idempotencyKey: string;
  /** The provider's payment of it (a PaymentIntent id). */
  paymentId: string;
  /** e.g. "Visa •••• 4242". */
  paymentMethod: string;
}

/** A saved card charged by automatic top-up, recorded as a paid purchase with a receipt and credited through the ledger. */
export function createAutomaticPurchases(deps: { repository: BillingRepository; ledger: Pick<Ledger, 'postPurchase'> }) {
  const { repository, ledger } = deps;
  return async function creditAutomaticPurchase(purchase: AutomaticPurchase, tx: Tx): Promise<{ purchaseId: string; receiptId: string }> {
    const { entry, duplicate } = await ledger.postPurchase(
      {
        subscriptionId: purchase.subscriptionId,
        amountCents: purchase.amountCents,
        idempotencyKey: purchase.idempotencyKey,
        remark: 'Automatic top-up',
        actorUserId: purchase.userId,
      },
      tx,
    );
    const existing = !duplicate ? undefined : await repository.findPurchaseBySessionForAccount(purchase.accountId, purchase.paymentId, tx);
    if (existing?.receiptId) return { purchaseId: existing.id, receiptId: existing.receiptId };
    const receiptId = await repository.nextReceiptId(tx);
    const row = await repository.insertPurchase(
      {
        accountId: purchase.accountId,
        subscriptionId: purchase.subscriptionId,
        userId: purchase.userId,
        gateway: 'auto-top-up',
        checkoutSessionId: purchase.paymentId,
        amountCents: purchase.amountCents,
        currency: purchase.currency,
        eventName: AUTO_TOP_UP_EVENT,
        category: 'PURCHASED',
        remark: 'Automatic top-up',
        status: 'SUCCESSFUL',
        paymentMethod: purchase.paymentMethod,
        ledgerEntryId: entry.id,
        receiptId,
        createdAt: entry.createdAt,
        updatedAt: entry.createdAt,
        paidAt: entry.createdAt,
      },
      tx,
    );
    return { purchaseId: row.id, receiptId };
  };
}

import type { FastifyBaseLogger } from 'fastify';
import {
  ADD_FUNDS,
  CHECKOUT_RETURN_PARAMS,
  MESSAGES,
  centsToAmount,
  isAdminFundCategory,
  type PaymentStatus,
  type PurchaseOrder,
  type TransactionStatus,
} from '@kumo/contract';
import {
  PaymentGatewayError,
  SANDBOX_EVENTS_QUEUE,
  WebhookSignatureError,
  type CheckoutState,
  type PaymentGateway,
  type SetupEvent,
} from '../../adapters/payments/index.js';
import type { Clock } from '../../clock.js';
import { HOUR } from '../../clock.js';
import type { Database } from '../../db/client.js';
import { AppError, badRequest, businessRule, conflict, notFound } from '../../errors.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import type { Ledger } from '../ledger/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import type { BillingRepository, PurchaseRow } from './billing.repository.js';
import { createAutomaticPurchases } from './automatic-purchases.js';
import { createConfirmations } from './confirmations.js';
import { renderReceiptPdf } from './receipt-pdf.js';
import { createStatements } from './statements.js';
import { createTransactionHistory } from './transaction-history.js';

export const BILLING_EXPIRE_CHECKOUTS_QUEUE = 'billing-expire-checkouts';
export const DEFAULT_CHECKOUT_LIFETIME_MS = 24 * HOUR;
const EXPIRY_BATCH = 100;

const gatewayUnavailable = () => new AppError(503, 'PAYMENT_GATEWAY_UNAVAILABLE', MESSAGES.paymentGatewayUnavailable);

export { purchaseKey } from './confirmations.js';

function presentStatus(purchase: PurchaseRow): PaymentStatus {
  return {
    subscription_id: purchase.subscriptionId,
    transaction_id: purchase.id,
    amount: centsToAmount(purchase.amountCents),
    transaction_status: purchase.status as TransactionStatus,
    receipt_id: purchase.receiptId,
    failure_message: purchase.failureMessage,
  };
}

/**
 * Adding funds by card, and the history and receipts of a subscription. A checkout may be confirmed by
 * the customer's return and by the provider's webhook, in any order and any number of times: each
 * confirmation locks the purchase, and the ledger posts it under the session's key, so it is credited once.
 */
export function createBillingService(deps: {
  db: Database;
  repository: BillingRepository;
  subscriptions: SubscriptionsService;
  ledger: Ledger;
  gateway: PaymentGateway;
  clock: Clock;
  publicUrl: string;
  logger: FastifyBaseLogger;
  /** How long an unpaid checkout stays open (CHECKOUT_EXPIRY_HOURS; Stripe's own limit is 24 hours). */
  checkoutLifetimeMs?: number;
}) {
  const { db, repository, subscriptions, ledger, gateway, clock, publicUrl, logger } = deps;
  const checkoutLifetimeMs = deps.checkoutLifetimeMs ?? DEFAULT_CHECKOUT_LIFETIME_MS;

  const { apply } = createConfirmations({ db, repository, ledger, clock, logger });
  // Saved cards belong to automatic top-up: their webhooks are handed to the listener the wiring attaches.
  const setupListeners: ((event: SetupEvent) => Promise<void>)[] = [];

  /** Closes an unpaid checkout at the provider and applies what it says (CANCELLED, or paid after all). */
  async function closeCheckout(purchase: PurchaseRow): Promise<void> {
    if (!purchase.checkoutSessionId) {
      await db.transaction(async (tx) => {
        const locked = await repository.lockPurchase(purchase.id, tx);
        if (locked && (locked.status === 'PAYMENT_INTENT_CREATED' || locked.status === 'PROCESSING' || locked.status === 'FAILED'))
          await repository.updatePurchase(purchase.id, { status: 'CANCELLED', updatedAt: clock.now() }, tx);
      });
      return;
    }
    let state: CheckoutState;
    try {
      state = await gateway.expireCheckout(purchase.checkoutSessionId);
    } catch (error) {
      if (error instanceof PaymentGatewayError) throw gatewayUnavailable();
      throw error;
    }
    await apply(state);
  }

  /**
   * Reads the session from the provider and applies it; a provider that does not answer leaves the purchase as it is.
   * Answers with the purchase as committed when the confirmation knows it (confirmations.ts `apply`).
   */
  async function sync(sessionId: string, read?: PurchaseRow): Promise<PurchaseRow | undefined> {
    let state: CheckoutState;
    try {
      state = await gateway.retrieveCheckout(sessionId);
    } catch (error) {
      if (!(error instanceof PaymentGatewayError)) throw error;
      logger.warn({ err: error, sessionId }, 'payment provider did not answer; the webhook will confirm the payment');
      return undefined;
    }
    return apply(state, read);
  }

  const statements = createStatements({ repository, ledger, subscriptions, clock });

  return {
    ...statements,

    /** Opens a hosted checkout for the amount and returns where to send the browser. */
    async purchase(accountId: string, userId: string, input: PurchaseOrder): Promise<{ redirect_url: string }> {
      const subscription = await subscriptions.requireOwned(accountId, input.subscription_id);
      const buyer = await repository.contactOf(userId);
      if (!buyer) throw notFound();
      const now = clock.now();
      const purchase = await repository.insertPurchase({
        accountId,
        subscriptionId: subscription.id,
        userId,
        gateway: gateway.kind,
        amountCents: input.amount,
        currency: input.iso_currency_code,
        eventName: input.event_name,
        category: input.category,
        remark: input.remark,
        status: 'PAYMENT_INTENT_CREATED',
        createdAt: now,
        updatedAt: now,
      });
      const back = `${publicUrl}/subscriptions`;
      const { sessionId: sessionParam, subscriptionId: idParam, cancelledPurchase } = CHECKOUT_RETURN_PARAMS;
      let session: { sessionId: string; url: string };
      try {
        // A call to the outside world: no transaction is open here.
        session = await gateway.createCheckout({
          purchaseId: purchase.id,
          subscriptionId: subscription.id,
          amountCents: input.amount,
          currency: input.iso_currency_code,
          description: `Funds for subscription ${subscription.name}`,
          customerEmail: buyer.email,
          successUrl: `${back}?${sessionParam}={CHECKOUT_SESSION_ID}&${idParam}=${subscription.id}`,
          cancelUrl: `${back}?${idParam}=${subscription.id}&${cancelledPurchase}=${purchase.id}`,
        });
      } catch (error) {
        logger.warn({ err: error, purchaseId: purchase.id }, 'could not open a checkout');
        await repository.updatePurchase(purchase.id, {
          status: 'FAILED',
          failureMessage: MESSAGES.paymentGatewayUnavailable,
          updatedAt: clock.now(),
        });
        throw gatewayUnavailable();
      }
      await repository.updatePurchase(purchase.id, {
        checkoutSessionId: session.sessionId,
        checkoutUrl: session.url,
        updatedAt: clock.now(),
      });
      return { redirect_url: session.url };
    },

    /** The customer is back from the provider: confirm the checkout with it and say how it went. */
    async paymentStatus(accountId: string, subscriptionId: string, sessionId: string): Promise<PaymentStatus> {
      const purchase = await repository.findPurchaseBySessionForAccount(accountId, sessionId);
      if (!purchase || purchase.subscriptionId !== subscriptionId) throw notFound('NOT_FOUND', MESSAGES.transactionNotFound);
      const confirmed = purchase.status === 'SUCCESSFUL' ? undefined : await sync(sessionId, purchase);
      return presentStatus(confirmed ?? (await repository.findPurchase(purchase.id))!);
    },

    /** The customer came back through the provider's cancel link: close the checkout unless it was paid after all. */
    async cancelPurchase(accountId: string, purchaseId: string): Promise<PaymentStatus> {
      const purchase = await repository.findPurchaseForAccount(accountId, purchaseId);
      if (!purchase) throw notFound('NOT_FOUND', MESSAGES.transactionNotFound);
      if (purchase.status !== 'SUCCESSFUL' && purchase.status !== 'CANCELLED') await closeCheckout(purchase);
      return presentStatus((await repository.findPurchase(purchase.id))!);
    },

    /**
     * The customer cancels a pending checkout from its row in the history. Only a pending one: a paid,
     * failed or settling payment is the provider's to finish. Cancelling a cancelled one again changes nothing.
     */
    async cancelPending(accountId: string, purchaseId: string): Promise<PaymentStatus> {
      const purchase = await repository.findPurchaseForAccount(accountId, purchaseId);
      if (!purchase) throw notFound('NOT_FOUND', MESSAGES.transactionNotFound);
      if (purchase.status !== 'CANCELLED') {
        if (purchase.status !== 'PAYMENT_INTENT_CREATED') throw conflict('CHECKOUT_NOT_PENDING', MESSAGES.checkoutNotPending);
        await closeCheckout(purchase);
      }
      return presentStatus((await repository.findPurchase(purchase.id))!);
    },

    /**
     * Closes checkouts left pending past their lifetime (the scheduled job), like Stripe expires its sessions:
     * each is closed at the provider and applied, so one paid at the last moment is credited, not cancelled.
     * Returns how many it closed.
     */
    async expireAbandonedCheckouts(): Promise<number> {
      const olderThan = new Date(clock.now().getTime() - checkoutLifetimeMs);
      let closed = 0;
      for (;;) {
        const abandoned = await repository.listPendingCreatedBefore(olderThan, EXPIRY_BATCH);
        let progressed = 0;
        for (const purchase of abandoned) {
          try {
            await closeCheckout(purchase);
          } catch (error) {
            // The provider is not answering: the next run tries again; its own expiry notification may come first.
            logger.warn({ err: error, purchaseId: purchase.id }, 'could not close an abandoned checkout');
            continue;
          }
          if ((await repository.findPurchase(purchase.id))?.status !== 'PAYMENT_INTENT_CREATED') progressed++;
        }
        closed += progressed;
        if (abandoned.length < EXPIRY_BATCH || progressed === 0) return closed;
      }
    },

    /** A webhook delivery, verified on its raw body before anything is read from it. */
    async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<void> {
      let event: CheckoutState | SetupEvent | null;
      try {
        event = gateway.parseWebhook(rawBody, signature);
      } catch (error) {
        if (error instanceof WebhookSignatureError) throw badRequest('WEBHOOK_SIGNATURE_INVALID', MESSAGES.webhookSignatureInvalid);
        throw error;
      }
      if (!event) return;
      if ('kind' in event) {
        for (const listener of setupListeners) await listener(event);
        return;
      }
      await apply(event);
    },

    /** Who is told of a card saved through the provider's webhook (automatic top-up, attached by services.ts). */
    attachSetupListener(listener: (event: SetupEvent) => Promise<void>): void {
      setupListeners.push(listener);
    },

    /** A saved card charged by automatic top-up: a paid purchase with a receipt, credited once under its key. */
    creditAutomaticPurchase: createAutomaticPurchases({ repository, ledger }),

    /** The sandbox provider's notification (a job): read the session and apply it. */
    syncCheckout: async (sessionId: string): Promise<void> => {
      await sync(sessionId);
    },

    /** A page of the subscription's history, newest first (transaction-history.ts). */
    transactions: createTransactionHistory({ repository, ledger, subscriptions }),

    /** The PDF receipt of a successful card purchase of the caller's account. */
    async receipt(accountId: string, transactionId: string, timeZone?: string): Promise<{ filename: string; pdf: Buffer }> {
      const purchase = await repository.findPurchaseForAccount(accountId, transactionId);
      if (!purchase) {
        const entry = await ledger.entryOfAccount(accountId, transactionId);
        if (!entry) throw notFound('NOT_FOUND', MESSAGES.transactionNotFound);
        throw businessRule(
          'RECEIPT_NOT_AVAILABLE',
          isAdminFundCategory(entry.category) ? MESSAGES.adminReceiptNotDownloadable : MESSAGES.receiptNotAvailable,
        );
      }
      const details = purchase.status === 'SUCCESSFUL' ? await repository.receiptOf(purchase.id) : undefined;
      const entry = details?.ledgerEntryId ? await ledger.entryOfAccount(accountId, details.ledgerEntryId) : undefined;
      if (!details || !entry || !purchase.receiptId || !purchase.paidAt)
        throw businessRule('RECEIPT_NOT_AVAILABLE', MESSAGES.receiptNotAvailable);
      const pdf = await renderReceiptPdf({
        receiptId: purchase.receiptId,
        transactionId: purchase.id,
        paidAt: purchase.paidAt,
        amountCents: purchase.amountCents,
        currency: purchase.currency || ADD_FUNDS.currency,
        paymentMethod: purchase.paymentMethod ?? 'Card',
        balanceAfterCents: entry.balanceAfterCents,
        customerName: details.customerName,
        customerEmail: details.customerEmail,
        subscriptionName: details.subscriptionName,
        description: `Funds for subscription ${details.subscriptionName}${purchase.remark ? ` (${purchase.remark})` : ''}`,
        timeZone,
      });
      return { filename: `${purchase.id}.pdf`, pdf };
    },
  };
}
export type BillingService = ReturnType<typeof createBillingService>;

export function billingJobs(billing: BillingService): JobDefinition[] {
  return [
    {
      queue: BILLING_EXPIRE_CHECKOUTS_QUEUE,
      retryLimit: 0,
      retryDelaySeconds: 60,
      // Every five minutes: an abandoned checkout shows Cancelled soon after its lifetime ends.
      schedule: '*/5 * * * *',
      handler: async () => {
        await billing.expireAbandonedCheckouts();
      },
    },
    {
      queue: SANDBOX_EVENTS_QUEUE,
      retryLimit: 5,
      retryDelaySeconds: 2,
      handler: async (data) => {
        await billing.syncCheckout(String(data.session_id));
      },
    },
  ];
}

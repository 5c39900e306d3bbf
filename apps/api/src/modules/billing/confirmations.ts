import type { FastifyBaseLogger } from 'fastify';
import { MESSAGES } from '@kumo/contract';
import type { CheckoutState } from '../../adapters/payments/index.js';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { createGroupCommit } from '../../db/group-commit.js';
import { conflict } from '../../errors.js';
import type { Ledger } from '../ledger/index.js';
import type { BillingRepository, PurchaseRow } from './billing.repository.js';

/** The ledger key of a card purchase: the checkout session can be credited once, however often it is confirmed. */
export const purchaseKey = (sessionId: string) => `checkout:${sessionId}`;

/** True when the provider's word is about another payment than the purchase: its session, amount or currency differ. */
function mismatched(purchase: PurchaseRow, state: CheckoutState): boolean {
  return (
    (state.sessionId !== undefined && purchase.checkoutSessionId !== null && state.sessionId !== purchase.checkoutSessionId) ||
    (state.amountCents !== undefined && state.amountCents !== purchase.amountCents) ||
    (state.currency !== undefined && state.currency !== purchase.currency)
  );
}

/** A group that the fast way does not cover: it is written one confirmation at a time instead. */
class OneByOne extends Error {}

/**
 * What the payment provider says about checkouts, applied to their purchases: the only place a purchase is credited.
 * Confirmations of one subscription's purchases are grouped (db/group-commit.ts, decision 0031): they wait in the
 * process while a transaction of that subscription runs, then go together into the next one, which takes the
 * subscription's row lock first. A group of payments is credited in a few statements (`creditAll`); any other group,
 * or one the fast way refuses, is applied one confirmation at a time (`applyOne`), each in its own savepoint.
 */
export function createConfirmations(deps: {
  db: Database;
  repository: BillingRepository;
  ledger: Ledger;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  const { db, repository, ledger, clock, logger } = deps;

  function refuseMismatch(purchase: PurchaseRow, state: CheckoutState): void {
    if (!mismatched(purchase, state)) return;
    logger.error({ purchaseId: purchase.id, sessionId: state.sessionId }, 'payment does not match its purchase; nothing credited');
    throw conflict('PAYMENT_MISMATCH', MESSAGES.paymentMismatch);
  }

  /**
   * Moves a purchase to what the provider says, once its group has committed. `read` is the purchase as the caller
   * has just read it, if it has (its subscription is all that is taken from it). Answers with the purchase as its
   * group committed it, when the group wrote it in one statement: a customer's return then needs no read after the
   * commit (when 200 wait on one commit, those reads were the end of the queue). Otherwise undefined: read it again.
   */
  async function apply(state: CheckoutState, read?: PurchaseRow): Promise<PurchaseRow | undefined> {
    // A notification about someone else's checkout (another system on the same provider account).
    const owner = read?.id === state.purchaseId ? read : await repository.findPurchase(state.purchaseId);
    if (!owner) return undefined;
    // Already credited: a payment never leaves SUCCESSFUL, so a repeated confirmation need not wait for the lock.
    if (owner.status === 'SUCCESSFUL' && state.outcome === 'PAID' && !mismatched(owner, state)) return owner;
    return confirmations.run(owner.subscriptionId, state);
  }

  /** One confirmation, in the group's transaction; its caller reads the purchase again. */
  async function applyOne(state: CheckoutState, tx: Tx): Promise<undefined> {
    const purchase = await repository.lockPurchase(state.purchaseId, tx);
    if (!purchase) return undefined;
    const sessionId = purchase.checkoutSessionId ?? state.sessionId;
    refuseMismatch(purchase, state);
    const now = clock.now();
    const update = (values: Partial<PurchaseRow>) =>
      repository.updatePurchase(purchase.id, { ...values, checkoutSessionId: sessionId ?? null, updatedAt: now }, tx);

    switch (state.outcome) {
      case 'PAID':
        if (purchase.status === 'SUCCESSFUL') return;
        // The session id is the ledger key; a payment that names no session cannot be credited safely.
        if (!sessionId) throw conflict('PAYMENT_MISMATCH', MESSAGES.paymentMismatch);
        await credit(purchase, sessionId, state, now, tx);
        return;
      case 'PROCESSING':
        if (purchase.status === 'PAYMENT_INTENT_CREATED' || purchase.status === 'FAILED')
          await update({ status: 'PROCESSING', failureMessage: null });
        return;
      case 'FAILED':
        // Also over CANCELLED: the decline notification may come after the checkout closed, and it says why.
        if (purchase.status !== 'SUCCESSFUL')
          await update({ status: 'FAILED', failureMessage: state.failureMessage ?? MESSAGES.cardDeclined });
        return;
      case 'EXPIRED':
        if (purchase.status !== 'PAYMENT_INTENT_CREATED' && purchase.status !== 'PROCESSING') return;
        // A checkout closed after a decline is FAILED with its reason, whichever notification came first.
        await update(state.failureMessage ? { status: 'FAILED', failureMessage: state.failureMessage } : { status: 'CANCELLED' });
        return;
      case 'OPEN':
        return;
    }
  }

  async function credit(purchase: PurchaseRow, sessionId: string, state: CheckoutState, now: Date, tx: Tx): Promise<void> {
    const { entry } = await ledger.postPurchase(
      {
        subscriptionId: purchase.subscriptionId,
        amountCents: purchase.amountCents,
        idempotencyKey: purchaseKey(sessionId),
        remark: purchase.remark,
        actorUserId: purchase.userId,
      },
      tx,
    );
    await repository.updatePurchase(
      purchase.id,
      {
        status: 'SUCCESSFUL',
        checkoutSessionId: sessionId,
        ledgerEntryId: entry.id,
        receiptId: purchase.receiptId ?? (await repository.nextReceiptId(tx)),
        paymentMethod: state.paymentMethod ?? purchase.paymentMethod ?? 'Card',
        failureMessage: null,
        paidAt: entry.createdAt,
        updatedAt: now,
      },
      tx,
    );
  }

  /**
   * The fast way for a group in which every confirmation is a payment: the purchases locked in one statement, the
   * new credits posted in one (the ledger's `postPurchases`), receipt numbers drawn and the purchases marked paid in
   * one each. Anything else throws `OneByOne`, and the group is applied by `applyOne` instead. Answers each
   * confirmation with its purchase as locked, or as marked paid.
   */
  async function creditAll(states: CheckoutState[], tx: Tx): Promise<(PurchaseRow | undefined)[]> {
    if (states.some((state) => state.outcome !== 'PAID')) throw new OneByOne();
    const locked = new Map((await repository.lockPurchases([...new Set(states.map((s) => s.purchaseId))], tx)).map((p) => [p.id, p]));
    const due = new Map<string, { purchase: PurchaseRow; sessionId: string; state: CheckoutState }>();
    for (const state of states) {
      const purchase = locked.get(state.purchaseId);
      if (!purchase) continue;
      if (mismatched(purchase, state)) throw new OneByOne();
      const sessionId = purchase.checkoutSessionId ?? state.sessionId;
      if (!sessionId) throw new OneByOne();
      if (purchase.status !== 'SUCCESSFUL' && !due.has(purchase.id)) due.set(purchase.id, { purchase, sessionId, state });
    }
    const credits = [...due.values()];
    if (credits.length > 0) {
      const subscriptionId = credits[0]!.purchase.subscriptionId;
      const posted = await ledger.postPurchases(
        subscriptionId,
        credits.map(({ purchase, sessionId }) => ({
          subscriptionId: purchase.subscriptionId,
          amountCents: purchase.amountCents,
          idempotencyKey: purchaseKey(sessionId),
          remark: purchase.remark,
          actorUserId: purchase.userId,
        })),
        tx,
      );
      const receiptIds = await repository.nextReceiptIds(credits.filter(({ purchase }) => !purchase.receiptId).length, tx);
      const paid = credits.map(({ purchase, sessionId, state }, index) => ({
        id: purchase.id,
        checkoutSessionId: sessionId,
        ledgerEntryId: posted[index]!.entry.id,
        receiptId: purchase.receiptId ?? receiptIds.shift()!,
        paymentMethod: state.paymentMethod ?? purchase.paymentMethod ?? 'Card',
        paidAt: posted[index]!.entry.createdAt,
      }));
      const updatedAt = clock.now();
      await repository.markPaid(paid, updatedAt, tx);
      // The rows as the statement left them: what markPaid sets, over what was locked.
      for (const [index, values] of paid.entries()) {
        locked.set(values.id, { ...credits[index]!.purchase, ...values, status: 'SUCCESSFUL', failureMessage: null, updatedAt });
      }
    }
    return states.map((state) => locked.get(state.purchaseId));
  }

  const confirmations = createGroupCommit<string, CheckoutState, PurchaseRow | undefined>({
    db,
    begin: (subscriptionId, tx) => ledger.lockSubscription(subscriptionId, tx),
    one: applyOne,
    all: creditAll,
  });

  return { apply };
}

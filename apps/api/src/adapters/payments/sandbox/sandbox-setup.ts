/**
 * The sandbox's side of saved cards: a setup page that saves a test card to a customer (Stripe Checkout in setup
 * mode), and off-session charges of the saved card that answer as Stripe's test cards do, charging nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../../clock.js';
import type { JobQueue } from '../../../jobs/job-queue.js';
import { PaymentGatewayError, type PaymentGateway, type SavedCardChargeResult, type SetupState } from '../payment-gateway.js';
import { SANDBOX_CARDS } from './sandbox-cards.js';
import type { SandboxRepository, SandboxSessionRow } from './sandbox.repository.js';

/** The queue the sandbox tells of a saved card on, as Stripe's setup webhooks would; automatic top-up works it. */
export const SANDBOX_SETUP_EVENTS_QUEUE = 'payments-sandbox-setup-events';

const token = () => randomBytes(18).toString('base64url');
/** A saved card's id names its test card, so a later charge answers as that card does. */
const paymentMethodIdOf = (number: string) => `pm_sandbox_${number}_${token()}`;
const cardNumberOf = (paymentMethodId: string) => /^pm_sandbox_(\d+)_/.exec(paymentMethodId)?.[1];

export function createSandboxSetup(deps: {
  repository: SandboxRepository;
  clock: Clock;
  publicUrl: string;
  jobs: JobQueue;
  sessionLifetimeMs: number;
}) {
  const { repository, clock, publicUrl, jobs } = deps;

  function stateOf(session: SandboxSessionRow): SetupState {
    const saved = session.status === 'complete' && session.paymentMethodId;
    return {
      sessionId: session.id,
      subscriptionId: session.clientReferenceId,
      customerId: session.customerId ?? '',
      card: saved
        ? {
            paymentMethodId: session.paymentMethodId!,
            brand: session.cardBrand ?? 'card',
            last4: session.cardLast4 ?? '',
            expMonth: session.cardExpMonth ?? 0,
            expYear: session.cardExpYear ?? 0,
          }
        : null,
    };
  }

  /** How the saved test card answers a charge with nobody present; charges nothing. */
  function answerOf(paymentMethodId: string, idempotencyKey: string): SavedCardChargeResult {
    const card = SANDBOX_CARDS[cardNumberOf(paymentMethodId) ?? ''];
    if (!card) throw new PaymentGatewayError(`No such payment method: ${paymentMethodId}`);
    // One key, one payment intent: a repeated call answers the same charge, as Stripe's Idempotency-Key does.
    const paymentIntentId = `pi_sandbox_${createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 24)}`;
    if (card.offSession) return { outcome: card.offSession.outcome, paymentIntentId, message: card.offSession.message };
    return { outcome: 'SUCCEEDED', paymentIntentId };
  }

  const calls: Pick<PaymentGateway, 'createSetup' | 'retrieveSetup' | 'chargeSaved' | 'findSavedCharge'> = {
    async createSetup(request) {
      const id = `cs_sandbox_${token()}`;
      const customerId = request.customerId ?? `cus_sandbox_${token()}`;
      const now = clock.now();
      await repository.insert({
        id,
        mode: 'setup',
        clientReferenceId: request.subscriptionId,
        amountCents: 0,
        currency: 'USD',
        description: request.description,
        customerEmail: request.customerEmail,
        customerId,
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        status: 'open',
        paymentStatus: 'no_payment_required',
        expiresAt: new Date(now.getTime() + deps.sessionLifetimeMs),
        createdAt: now,
      });
      return { sessionId: id, url: `${publicUrl}/sandbox/checkout/${id}`, customerId };
    },

    async retrieveSetup(sessionId) {
      const session = await repository.find(sessionId);
      if (!session || session.mode !== 'setup') throw new PaymentGatewayError(`No such setup session: ${sessionId}`);
      return stateOf(session);
    },

    async chargeSaved(request) {
      return answerOf(request.paymentMethodId, request.idempotencyKey);
    },

    // Its charges answer at once and keep no record: one with an intent answers as its card does, one without was never made.
    async findSavedCharge(charge) {
      return charge.paymentIntentId ? answerOf(charge.paymentMethodId, charge.idempotencyKey) : null;
    },
  };

  return {
    calls,

    /** Like Stripe's setup webhooks: a nudge to read the subscription's setup session back, in the background. */
    async notify(session: SandboxSessionRow): Promise<void> {
      try {
        await jobs.send(SANDBOX_SETUP_EVENTS_QUEUE, { subscription_id: session.clientReferenceId });
      } catch {
        // The customer's return reads the session anyway.
      }
    },

    /** The customer saved a valid test card on the setup page; undefined when the session was no longer open. */
    async save(session: SandboxSessionRow, number: string, expiry: string): Promise<SandboxSessionRow | undefined> {
      const [month, year] = expiry.split('/').map((part) => Number(part.trim()));
      return repository.updateOpen(session.id, {
        status: 'complete',
        lastError: null,
        cardBrand: SANDBOX_CARDS[number]?.brand ?? 'card',
        cardLast4: number.slice(-4),
        cardExpMonth: month,
        cardExpYear: 2000 + (year ?? 0),
        paymentMethodId: paymentMethodIdOf(number),
        completedAt: clock.now(),
      });
    },
  };
}

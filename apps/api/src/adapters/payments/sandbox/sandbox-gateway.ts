import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../clock.js';
import { DAY } from '../../../clock.js';
import type { JobQueue } from '../../../jobs/job-queue.js';
import { PaymentGatewayError, WebhookSignatureError, describeCard, type CheckoutState, type PaymentGateway } from '../payment-gateway.js';
import { NOT_A_TEST_CARD, SANDBOX_CARDS, validateCard, type CardForm } from './sandbox-cards.js';
import { createSandboxSetup } from './sandbox-setup.js';
import type { SandboxRepository, SandboxSessionRow } from './sandbox.repository.js';

/** The queue the sandbox delivers its webhook-style notifications on; the billing module works it. */
export const SANDBOX_EVENTS_QUEUE = 'payments-sandbox-events';
/** Stripe Checkout's default: a session nobody pays closes after 24 hours. */
export const DEFAULT_SESSION_LIFETIME_MS = DAY;

export type PayResult =
  | { kind: 'redirect'; url: string }
  | { kind: 'invalid'; session: SandboxSessionRow; errors: Partial<Record<keyof CardForm, string>> }
  | { kind: 'declined'; session: SandboxSessionRow; message: string };

/**
 * The sandbox payment provider: hosted checkout pages served by the portal, with the same states,
 * redirects and after-the-fact notifications as Stripe Checkout, charging nothing.
 */
export function createSandboxGateway(deps: {
  repository: SandboxRepository;
  clock: Clock;
  publicUrl: string;
  jobs: JobQueue;
  /** How long a session stays open unpaid (CHECKOUT_EXPIRY_HOURS). */
  sessionLifetimeMs?: number;
}) {
  const { repository, clock, publicUrl, jobs } = deps;
  const sessionLifetimeMs = deps.sessionLifetimeMs ?? DEFAULT_SESSION_LIFETIME_MS;
  const setup = createSandboxSetup({ repository, clock, publicUrl, jobs, sessionLifetimeMs });

  function stateOf(session: SandboxSessionRow): CheckoutState {
    const outcome =
      session.status === 'complete' ? 'PAID' : session.status === 'expired' ? 'EXPIRED' : session.lastError ? 'FAILED' : 'OPEN';
    return {
      purchaseId: session.clientReferenceId,
      sessionId: session.id,
      outcome,
      amountCents: session.amountCents,
      currency: session.currency,
      failureMessage: session.lastError ?? undefined,
      paymentMethod: describeCard(session.cardBrand, session.cardLast4),
    };
  }

  /** Like a webhook: delivered after the change is stored, at least once, in the background. */
  async function notify(session: SandboxSessionRow): Promise<void> {
    if (session.mode === 'setup') return setup.notify(session);
    try {
      await jobs.send(SANDBOX_EVENTS_QUEUE, { session_id: session.id });
    } catch {
      // The customer's return reads the session anyway; a lost notification only delays nothing.
    }
  }

  /** The session as it is now; an open one past its lifetime expires on the spot (Stripe expires them after 24 hours). */
  async function current(sessionId: string): Promise<SandboxSessionRow | undefined> {
    const session = await repository.find(sessionId);
    if (session?.status === 'open' && session.expiresAt <= clock.now()) {
      const expired = await repository.updateOpen(session.id, { status: 'expired' });
      if (expired) await notify(expired);
      return expired ?? repository.find(sessionId);
    }
    return session;
  }

  const gateway: PaymentGateway = {
    kind: 'sandbox',

    async createCheckout(request) {
      const id = `cs_sandbox_${randomBytes(24).toString('base64url')}`;
      const now = clock.now();
      await repository.insert({
        id,
        clientReferenceId: request.purchaseId,
        amountCents: request.amountCents,
        currency: request.currency,
        description: request.description,
        customerEmail: request.customerEmail,
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        status: 'open',
        paymentStatus: 'unpaid',
        expiresAt: new Date(now.getTime() + sessionLifetimeMs),
        createdAt: now,
      });
      return { sessionId: id, url: `${publicUrl}/sandbox/checkout/${id}` };
    },

    async retrieveCheckout(sessionId) {
      const session = await current(sessionId);
      if (!session) throw new PaymentGatewayError(`No such checkout session: ${sessionId}`);
      return stateOf(session);
    },

    async expireCheckout(sessionId) {
      const session = await current(sessionId);
      if (!session) throw new PaymentGatewayError(`No such checkout session: ${sessionId}`);
      const expired = session.status === 'open' ? await repository.updateOpen(sessionId, { status: 'expired' }) : undefined;
      if (expired) await notify(expired);
      return stateOf(expired ?? (await repository.find(sessionId))!);
    },

    parseWebhook() {
      // The sandbox notifies through the job queue, never over HTTP.
      throw new WebhookSignatureError('The sandbox payment provider sends no webhooks');
    },

    ...setup.calls,
  };

  return {
    gateway,

    /** The hosted page's view of a session; undefined for an unknown id. */
    view: current,

    /** The customer pressed Pay. */
    async pay(sessionId: string, form: CardForm): Promise<PayResult | undefined> {
      const session = await current(sessionId);
      if (!session) return undefined;
      if (session.status !== 'open')
        return { kind: 'redirect', url: session.status === 'complete' ? successUrlOf(session) : session.cancelUrl };

      const { errors, number } = validateCard(form, clock.now());
      if (Object.keys(errors).length > 0) return { kind: 'invalid', session, errors };

      const card = SANDBOX_CARDS[number];
      if (!card || card.decline) {
        const message = card?.decline ?? NOT_A_TEST_CARD;
        const declined = await repository.updateOpen(sessionId, { lastError: message });
        if (!declined) return gatewayRedirect(sessionId);
        await notify(declined);
        return { kind: 'declined', session: declined, message };
      }
      if (session.mode === 'setup') {
        const saved = await setup.save(session, number, form.expiry ?? '');
        if (!saved) return gatewayRedirect(sessionId);
        await notify(saved);
        return { kind: 'redirect', url: successUrlOf(saved) };
      }
      const paid = await repository.updateOpen(sessionId, {
        status: 'complete',
        paymentStatus: 'paid',
        lastError: null,
        cardBrand: card.brand,
        cardLast4: number.slice(-4),
        completedAt: clock.now(),
      });
      // A second Pay racing the first finds the session complete and follows it to the success page.
      if (!paid) return gatewayRedirect(sessionId);
      await notify(paid);
      return { kind: 'redirect', url: successUrlOf(paid) };
    },

    /** The customer pressed Cancel: the session closes unpaid and the browser goes back to the portal. */
    async cancel(sessionId: string): Promise<string | undefined> {
      const session = await current(sessionId);
      if (!session) return undefined;
      if (session.status === 'complete') return successUrlOf(session);
      const expired = session.status === 'open' ? await repository.updateOpen(sessionId, { status: 'expired' }) : undefined;
      if (expired) await notify(expired);
      return session.cancelUrl;
    },
  };

  async function gatewayRedirect(sessionId: string): Promise<PayResult> {
    const latest = (await repository.find(sessionId))!;
    return { kind: 'redirect', url: latest.status === 'complete' ? successUrlOf(latest) : latest.cancelUrl };
  }
}

function successUrlOf(session: SandboxSessionRow): string {
  return session.successUrl.replaceAll('{CHECKOUT_SESSION_ID}', session.id);
}

export type SandboxCheckout = ReturnType<typeof createSandboxGateway>;

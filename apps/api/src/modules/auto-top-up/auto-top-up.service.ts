/**
 * Automatic top-up (docs/spend-control.md): settings and a saved card per subscription, and an off-session charge
 * when a metering run leaves the balance under the threshold (auto-top-up-charges.ts). Answers in cents and Dates;
 * the routes' presentation.ts writes the wire's dollars.
 */
import {
  API_TOKEN_MESSAGES,
  AUTO_TOP_UP_DEFAULTS,
  AUTO_TOP_UP_MESSAGES,
  CENTS_PER_DOLLAR,
  MESSAGES,
  type AutoTopUpSettings,
} from '@kumo/contract';
import { PaymentGatewayError } from '../../adapters/payments/index.js';
import { HOUR } from '../../clock.js';
import type { Tx } from '../../db/client.js';
import { AppError, businessRule, conflict, notFound } from '../../errors.js';
import { createAutoTopUpCharges, monthKey, type AutoTopUpDeps } from './auto-top-up-charges.js';
import type { AutoTopUpRow, ChargeRow } from './auto-top-up.repository.js';
import type { autoTopUps } from './auto-top-up.schema.js';

/** A subscription's settings (defaults when never saved), its month's top-ups and the last charge answered. */
export interface AutoTopUpValues {
  subscriptionId: string;
  settings: AutoTopUpRow | undefined;
  monthToDateCents: number;
  lastAttempt: ChargeRow | undefined;
}

const cardsUnavailable = () => new AppError(503, 'SERVICE_UNAVAILABLE', AUTO_TOP_UP_MESSAGES.cardsUnavailable);

/**
 * Checkout sessions expire 24 hours after they open. The row's updatedAt is set when the session opens and only moves
 * later, so a session whose row is older than that has surely expired and can no longer save a card.
 */
const SETUP_SESSION_LIFETIME_MS = 24 * HOUR;

/** Who saves the settings: a person signed in, or a personal API token acting as one. */
export interface SettingsAuthor {
  viaApiToken: boolean;
}

type Settings = Pick<typeof autoTopUps.$inferInsert, 'enabled' | 'status' | 'thresholdCents' | 'topUpCents' | 'monthlyCapCents'>;

/**
 * Whether saving `after` over `before` lets the card be charged more, sooner or again: turning top-up on (a paused one
 * included) or raising any of its amounts. Only a person may do that; a token may turn it off or lower it.
 */
function raisesSpending(before: Settings, after: Settings): boolean {
  const running = before.enabled === true && before.status === 'ACTIVE';
  return (
    (after.enabled === true && !running) ||
    after.topUpCents > before.topUpCents ||
    after.monthlyCapCents > before.monthlyCapCents ||
    after.thresholdCents > before.thresholdCents
  );
}

const DEFAULT_CENTS = {
  thresholdCents: AUTO_TOP_UP_DEFAULTS.threshold_amount * CENTS_PER_DOLLAR,
  topUpCents: AUTO_TOP_UP_DEFAULTS.top_up_amount * CENTS_PER_DOLLAR,
  monthlyCapCents: AUTO_TOP_UP_DEFAULTS.monthly_cap * CENTS_PER_DOLLAR,
};

export function createAutoTopUpService(deps: AutoTopUpDeps) {
  const { repository, subscriptions, gateway, clock, publicUrl, logger } = deps;
  const charges = createAutoTopUpCharges(deps);

  /**
   * Reads the card a setup session saved back from the provider and stores it. Called only when a card can just have
   * been saved (each call is a request to the provider), never for an expired session. A provider out of reach changes
   * nothing: logged when the notification will bring the card anyway, or, with `required`, 503 with Retry-After.
   */
  async function syncSetup(settings: AutoTopUpRow | undefined, options: { required?: boolean } = {}): Promise<void> {
    const sessionId = settings?.setupSessionId;
    if (!settings || !sessionId) return;
    if (clock.now().getTime() - settings.updatedAt.getTime() >= SETUP_SESSION_LIFETIME_MS) return;
    let card;
    try {
      card = (await gateway.retrieveSetup(sessionId)).card;
    } catch (error) {
      logger?.warn({ err: error, subscriptionId: settings.subscriptionId }, 'could not read a saved card back');
      if (!options.required) return;
      throw error instanceof PaymentGatewayError ? cardsUnavailable() : error;
    }
    if (!card) return;
    await repository.storeCard(
      settings.subscriptionId,
      sessionId,
      {
        paymentMethodId: card.paymentMethodId,
        cardBrand: card.brand,
        cardLast4: card.last4,
        cardExpMonth: card.expMonth,
        cardExpYear: card.expYear,
      },
      clock.now(),
    );
  }

  async function read(subscriptionId: string): Promise<AutoTopUpValues> {
    const [settings, monthToDateCents, lastAttempt] = await Promise.all([
      repository.find(subscriptionId),
      repository.creditedInMonth(subscriptionId, monthKey(clock.now())),
      repository.lastSettled(subscriptionId),
    ]);
    return { subscriptionId, settings, monthToDateCents, lastAttempt };
  }

  /** A new row with the defaults (off, no card). */
  const defaults = (accountId: string, subscriptionId: string): typeof autoTopUps.$inferInsert => ({
    subscriptionId,
    accountId,
    enabled: false,
    ...DEFAULT_CENTS,
    status: 'OFF',
    updatedAt: clock.now(),
  });

  /** The row as saved, or a new one with the defaults. */
  async function current(accountId: string, subscriptionId: string): Promise<typeof autoTopUps.$inferInsert> {
    return (await repository.find(subscriptionId)) ?? defaults(accountId, subscriptionId);
  }

  return {
    /** With `cardReturn` (the customer is back from the card-saving page) the card saved there is read back first. */
    async get(accountId: string, subscriptionId: string, options: { cardReturn?: boolean } = {}): Promise<AutoTopUpValues> {
      await subscriptions.requireOwned(accountId, subscriptionId);
      if (options.cardReturn) await syncSetup(await repository.find(subscriptionId));
      return read(subscriptionId);
    },

    /**
     * Saves the settings; turning it on needs a saved card. Saving takes a paused top-up back to work. A personal API
     * token may only turn it off or lower it (403 TOKEN_NOT_ALLOWED otherwise): no script spends on the card.
     */
    async put(accountId: string, subscriptionId: string, settings: AutoTopUpSettings, author: SettingsAuthor): Promise<AutoTopUpValues> {
      await subscriptions.requireOwned(accountId, subscriptionId);
      const saved = await current(accountId, subscriptionId);
      const next = {
        enabled: settings.enabled,
        thresholdCents: settings.threshold_amount,
        topUpCents: settings.top_up_amount,
        monthlyCapCents: settings.monthly_cap,
        status: settings.enabled ? ('ACTIVE' as const) : ('OFF' as const),
      };
      if (author.viaApiToken && raisesSpending(saved, next)) throw new AppError(403, 'TOKEN_NOT_ALLOWED', API_TOKEN_MESSAGES.topUpRaised);
      // Turning it on just after saving a card, before the provider's notification came: the card is read back first.
      const existing = await repository.find(subscriptionId);
      if (settings.enabled && !existing?.paymentMethodId) await syncSetup(existing, { required: true });
      const hasCard = Boolean((await repository.find(subscriptionId))?.paymentMethodId);
      if (settings.enabled && !hasCard) throw businessRule('PAYMENT_METHOD_REQUIRED', AUTO_TOP_UP_MESSAGES.paymentMethodRequired);
      await repository.upsert({ ...(await current(accountId, subscriptionId)), ...next, updatedAt: clock.now() });
      return read(subscriptionId);
    },

    /** Opens the provider's page that saves a card (setup mode), for the subscription's customer. */
    async setupPaymentMethod(accountId: string, userId: string, subscriptionId: string): Promise<{ redirect_url: string }> {
      const subscription = await subscriptions.requireOwned(accountId, subscriptionId);
      const email = await repository.emailOf(userId);
      if (!email) throw notFound();
      const customerId = (await repository.find(subscriptionId))?.customerId ?? null;
      const back = `${publicUrl}/subscriptions/${subscriptionId}`;
      let session;
      try {
        // A call to the outside world: no transaction is open here.
        session = await gateway.createSetup({
          subscriptionId,
          customerId,
          customerEmail: email,
          description: `Automatic top-up of subscription ${subscription.name}`,
          successUrl: `${back}?card=saved`,
          cancelUrl: back,
        });
      } catch (error) {
        if (!(error instanceof PaymentGatewayError)) throw error;
        logger?.warn({ err: error, subscriptionId }, 'could not open a card-saving page');
        throw cardsUnavailable();
      }
      // Only what the page changes: the status and the card may have changed while the provider answered.
      await repository.insertIfAbsent(defaults(accountId, subscriptionId));
      await repository.update(subscriptionId, {
        customerId: session.customerId,
        setupSessionId: session.sessionId,
        updatedAt: clock.now(),
      });
      return { redirect_url: session.url };
    },

    /** Removes the saved card and turns top-up off; the provider's customer is kept for the next card. */
    async deletePaymentMethod(accountId: string, subscriptionId: string): Promise<AutoTopUpValues> {
      await subscriptions.requireOwned(accountId, subscriptionId);
      if (await repository.find(subscriptionId)) {
        await repository.update(subscriptionId, {
          enabled: false,
          status: 'OFF',
          setupSessionId: null,
          paymentMethodId: null,
          cardBrand: null,
          cardLast4: null,
          cardExpMonth: null,
          cardExpYear: null,
          updatedAt: clock.now(),
        });
      }
      return read(subscriptionId);
    },

    /** The provider says a card was saved for the subscription (webhook, or the sandbox's notification): read it back. */
    async cardSaved(subscriptionId: string): Promise<void> {
      await syncSetup(await repository.find(subscriptionId));
    },

    /**
     * The subscriptions module's deletion step: a top-up still being charged refuses it, since the money would land on
     * a deleted subscription; otherwise top-up is turned off, so nothing is charged for it again.
     */
    async subscriptionDeleting(subscriptionId: string, tx: Tx): Promise<void> {
      if (!(await repository.lock(subscriptionId, tx))) return;
      if (await repository.hasOpenCharge(subscriptionId, null, tx)) throw conflict('TOP_UP_PENDING', MESSAGES.subscriptionTopUpPending);
      await repository.update(subscriptionId, { enabled: false, status: 'OFF', updatedAt: clock.now() }, tx);
    },

    afterCharge: charges.afterCharge,
    charge: charges.charge,
  };
}
export type AutoTopUpService = ReturnType<typeof createAutoTopUpService>;

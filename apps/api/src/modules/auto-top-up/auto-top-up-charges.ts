/**
 * The charge: after a metering run, a subscription whose balance fell under its threshold claims the hour's charge
 * (one per subscription and UTC hour, none while another is pending or within the hour before, never over the monthly
 * cap) and a job carries it out with the provider, outside any transaction. The answer is settled under the charge's
 * row lock: credited once through billing's purchases, or the top-up paused. A provider out of reach, or a charge it is
 * still processing, leaves the charge pending for the job queue to try again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { AUTO_TOP_UP_MESSAGES } from '@kumo/contract';
import { describeCard, PaymentGatewayError, type PaymentGateway, type SavedCardChargeResult } from '../../adapters/payments/index.js';
import { HOUR, type Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { BillingService } from '../billing/index.js';
import { noticeMail, type MailService } from '../mail/index.js';
import type { NoticesService } from '../notices/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { capMail, failedMail, succeededMail, type TopUpMail } from './auto-top-up-mail.js';
import type { AutoTopUpRepository, AutoTopUpRow, ChargeRow } from './auto-top-up.repository.js';

export const AUTO_TOP_UP_CHARGE_QUEUE = 'auto-top-up-charge';

/** The UTC month, as YYYY-MM. */
export const monthKey = (at: Date) => at.toISOString().slice(0, 7);
/** One charge per subscription and UTC hour: the provider's Idempotency-Key and the ledger's. */
export const chargeKey = (subscriptionId: string, at: Date) =>
  `auto-top-up:${subscriptionId}:${new Date(Math.floor(at.getTime() / HOUR) * HOUR).toISOString()}`;

/** Stripe forgets an Idempotency-Key after 24 hours; past this age a charge is looked up, never made again. */
const KEY_LIFETIME_MS = 23 * HOUR;

/** A charge the provider never made: it had no answer for a day, and making it now could charge twice. */
const unconfirmed: SavedCardChargeResult = { outcome: 'DECLINED', paymentIntentId: null, message: AUTO_TOP_UP_MESSAGES.chargeUnconfirmed };

type Settled = Exclude<SavedCardChargeResult, { outcome: 'PROCESSING' }>;

/** What automatic top-up needs of the rest of the portal: the settings' service and its charges take the same. */
export interface AutoTopUpDeps {
  db: Database;
  repository: AutoTopUpRepository;
  subscriptions: Pick<SubscriptionsService, 'list' | 'requireOwned'>;
  billing: Pick<BillingService, 'creditAutomaticPurchase'>;
  gateway: PaymentGateway;
  jobs: JobQueue;
  mail: Pick<MailService, 'enqueue' | 'dispatch'>;
  notices: Pick<NoticesService, 'write'>;
  clock: Clock;
  publicUrl: string;
  logger?: FastifyBaseLogger;
}

export function createAutoTopUpCharges(deps: AutoTopUpDeps) {
  const { db, repository, subscriptions, gateway, jobs, mail, clock } = deps;
  const linkOf = (subscriptionId: string) => `/subscriptions/${subscriptionId}`;

  /** Mails the owner and writes the same notice, in the caller's transaction; the mail id to dispatch after it commits. */
  async function tell(
    accountId: string,
    subscriptionId: string,
    kind: 'TOP_UP_SUCCEEDED' | 'TOP_UP_FAILED' | 'TOP_UP_CAP_REACHED',
    key: string,
    message: TopUpMail,
    tx: Tx,
  ) {
    const owner = await repository.ownerOf(accountId, tx);
    if (!owner) return undefined;
    await deps.notices.write(
      {
        accountId,
        kind,
        key,
        title: message.subject,
        body: message.lines.join(' '),
        link: linkOf(subscriptionId),
        subscriptionId,
        recipientUserIds: [owner.userId],
      },
      tx,
    );
    return mail.enqueue(noticeMail(owner.email, message.subject, message.lines), tx);
  }

  async function dispatch(mailId: string | undefined): Promise<void> {
    if (mailId) await mail.dispatch(mailId);
  }

  /** Claims this hour's charge of one subscription under its settings' lock; the key when one was claimed. */
  async function claim(row: AutoTopUpRow, name: string, now: Date): Promise<string | undefined> {
    const key = chargeKey(row.subscriptionId, now);
    const month = monthKey(now);
    let mailId: string | undefined;
    const claimed = await db.transaction(async (tx) => {
      const locked = await repository.lock(row.subscriptionId, tx);
      if (!locked || locked.status !== 'ACTIVE' || !locked.paymentMethodId || !locked.customerId) return false;
      // One charge at a time, at most one an hour: a provider out of reach for hours still leaves one charge for one dip.
      if (await repository.hasOpenCharge(row.subscriptionId, new Date(now.getTime() - HOUR), tx)) return false;
      const counted = await repository.countedInMonth(row.subscriptionId, month, tx);
      if (counted + locked.topUpCents > locked.monthlyCapCents) {
        // Skipped, not charged in part; the owner hears of it once a month.
        if (await repository.claimCapNotice(row.subscriptionId, month, tx)) {
          const message = capMail(name, locked.monthlyCapCents, `${deps.publicUrl}${linkOf(row.subscriptionId)}`);
          mailId = await tell(
            row.accountId,
            row.subscriptionId,
            'TOP_UP_CAP_REACHED',
            `auto-top-up-cap:${row.subscriptionId}:${month}`,
            message,
            tx,
          );
        }
        return false;
      }
      return repository.claim(
        {
          idempotencyKey: key,
          subscriptionId: row.subscriptionId,
          month,
          amountCents: locked.topUpCents,
          customerId: locked.customerId,
          paymentMethodId: locked.paymentMethodId,
          cardLabel: describeCard(locked.cardBrand, locked.cardLast4) ?? 'Card',
          status: 'PENDING',
          createdAt: now,
        },
        tx,
      );
    });
    await dispatch(mailId);
    return claimed ? key : undefined;
  }

  /** Records the provider's answer once, under the charge's lock: credited, or the top-up paused. */
  async function settle(charge: ChargeRow, result: Settled): Promise<void> {
    const now = clock.now();
    const mailId = await db.transaction(async (tx) => {
      const locked = await repository.lockCharge(charge.idempotencyKey, tx);
      if (!locked || locked.status !== 'PENDING') return undefined;
      const settings = await repository.find(charge.subscriptionId, tx);
      if (!settings) return undefined;
      // Money taken is credited even if the subscription went away meanwhile; the mail then names it generally.
      const subscription = await subscriptions.requireOwned(settings.accountId, charge.subscriptionId, tx).catch(() => undefined);
      const name = subscription?.name ?? 'Your subscription';
      const owner = await repository.ownerOf(settings.accountId, tx);
      if (result.outcome === 'SUCCEEDED') {
        const { receiptId } = await deps.billing.creditAutomaticPurchase(
          {
            accountId: settings.accountId,
            subscriptionId: charge.subscriptionId,
            userId: owner!.userId,
            amountCents: charge.amountCents,
            currency: 'USD',
            idempotencyKey: charge.idempotencyKey,
            paymentId: result.paymentIntentId,
            paymentMethod: charge.cardLabel,
          },
          tx,
        );
        await repository.settleCharge(
          charge.idempotencyKey,
          { status: 'SUCCEEDED', message: null, paymentIntentId: result.paymentIntentId, settledAt: now },
          tx,
        );
        const message = succeededMail(name, charge.amountCents, charge.cardLabel, receiptId);
        return tell(settings.accountId, charge.subscriptionId, 'TOP_UP_SUCCEEDED', charge.idempotencyKey, message, tx);
      }
      await repository.settleCharge(
        charge.idempotencyKey,
        { status: result.outcome, message: result.message, paymentIntentId: result.paymentIntentId, settledAt: now },
        tx,
      );
      // Paused until the customer acts: a blind retry would only be refused again.
      if (settings.status === 'ACTIVE')
        await repository.update(charge.subscriptionId, { status: 'PAUSED_AFTER_FAILURE', updatedAt: now }, tx);
      const message = failedMail(name, charge.amountCents, result.message, `${deps.publicUrl}${linkOf(charge.subscriptionId)}`);
      return tell(settings.accountId, charge.subscriptionId, 'TOP_UP_FAILED', charge.idempotencyKey, message, tx);
    });
    await dispatch(mailId);
  }

  /**
   * Asks the provider once about a pending charge: made under its key while the key is remembered, otherwise only
   * looked up, by the payment intent it already has or by the key.
   */
  async function carryOut(charge: ChargeRow): Promise<SavedCardChargeResult> {
    const remembered = clock.now().getTime() - charge.createdAt.getTime() < KEY_LIFETIME_MS;
    if (charge.paymentIntentId || !remembered) {
      const lookup = {
        paymentIntentId: charge.paymentIntentId,
        idempotencyKey: charge.idempotencyKey,
        paymentMethodId: charge.paymentMethodId,
      };
      return (await gateway.findSavedCharge(lookup)) ?? unconfirmed;
    }
    return gateway.chargeSaved({
      customerId: charge.customerId,
      paymentMethodId: charge.paymentMethodId,
      amountCents: charge.amountCents,
      currency: 'USD',
      description: 'Kumo Cloud automatic top-up',
      idempotencyKey: charge.idempotencyKey,
      subscriptionId: charge.subscriptionId,
    });
  }

  return {
    /**
     * After each account's charges in a metering run: every live subscription with top-up on whose balance is now
     * under its threshold claims this hour's charge, and the job carries it out. Charges still pending (a provider
     * that was out of reach or still processing) are handed to the queue again, whatever the settings say now;
     * carrying one out twice charges and credits it once.
     */
    async afterCharge(accountId: string): Promise<void> {
      const rows = await repository.activeOfAccount(accountId);
      if (rows.length > 0) {
        const live = new Map((await subscriptions.list(accountId)).map((s) => [s.id, s]));
        const now = clock.now();
        for (const row of rows) {
          const subscription = live.get(row.subscriptionId);
          if (!subscription || subscription.balanceCents >= row.thresholdCents) continue;
          await claim(row, subscription.name, now);
        }
      }
      for (const key of await repository.pendingOfAccount(accountId)) await jobs.send(AUTO_TOP_UP_CHARGE_QUEUE, { key });
    },

    /** The job: one claimed charge carried out with the provider (outside any transaction), then settled. */
    async charge(key: string): Promise<void> {
      const charge = await repository.findCharge(key);
      if (!charge || charge.status !== 'PENDING') return;
      // Out of reach: this throws, the queue tries again later with the same key, and nothing is paused.
      const result = await carryOut(charge);
      if (result.outcome === 'PROCESSING') {
        await repository.notePaymentIntent(key, result.paymentIntentId);
        throw new PaymentGatewayError(`payment intent ${result.paymentIntentId} is still processing`);
      }
      await settle(charge, result);
    },
  };
}

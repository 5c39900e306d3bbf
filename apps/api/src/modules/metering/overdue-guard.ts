import { randomUUID } from 'node:crypto';
import { countOf, formatUsdCents } from '@kumo/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import { DAY } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { AuthService } from '../auth/index.js';
import type { ClustersService } from '../clusters/index.js';
import type { Ledger } from '../ledger/index.js';
import { noticeMail, type MailService } from '../mail/index.js';
import type { NoticeDraft, NoticesService } from '../notices/index.js';
import type { SubscriptionSummary, SubscriptionsService } from '../subscriptions/index.js';
import type { MeteringRepository } from './metering.repository.js';

type ClusterOfAccount = Awaited<ReturnType<ClustersService['notDeletedOf']>>[number];
/** A notice to the owner: the key it is sent once under, its mail, its kind and link in the console's bell, and its subscription. */
interface Notice {
  key: string;
  subject: string;
  lines: string[];
  kind: NoticeDraft['kind'];
  link: string;
  subscriptionId: string;
}

/** Where a subscription's notices point in the console. */
const subscriptionLink = (subscriptionId: string) => `/subscriptions/${subscriptionId}`;

/**
 * What runs after each account's charges: the overdue guard (stops clusters below the overdue limit, and any cluster
 * whose subscription is gone) and the owner's notices (overdue stop, runway, credit expiry), each mailed once.
 */
export function createOverdueGuard(deps: {
  db: Database;
  repository: Pick<MeteringRepository, 'claimNotice'>;
  ledger: Pick<Ledger, 'overdueLimit' | 'freeCreditGrants'>;
  subscriptions: Pick<SubscriptionsService, 'list'>;
  clusters: Pick<ClustersService, 'notDeletedOf' | 'stopForOverdue'>;
  /** Where the notices go: the account owner's e-mail. */
  auth: Pick<AuthService, 'accountOwnerEmail'>;
  mail: Pick<MailService, 'enqueue' | 'dispatch'>;
  /** Each mail is also a notice in the owner's bell, written in the mail's transaction. */
  notices: Pick<NoticesService, 'write'>;
  clock: Clock;
  logger?: FastifyBaseLogger;
  /** What the account's clusters cost per billable hour now, per subscription. */
  hourCentsOf(accountId: string): Promise<(subscriptionId: string) => number>;
}) {
  const { db, repository, ledger, subscriptions, clusters, auth, mail, notices, clock } = deps;

  /** Mails the owner once per key; the mail is queued for delivery as soon as its outbox row commits. */
  function notify(accountId: string, notice: Notice): Promise<boolean> {
    return notifyMostUrgent(accountId, [notice]);
  }

  /** A cluster outside any live subscription cannot be seen or paid for by anyone: it is stopped, and operators told. */
  async function stopOrphans(accountId: string, subscriptionId: string, orphans: ClusterOfAccount[]): Promise<void> {
    const subscriptionName = orphans[0]?.subscriptionName ?? subscriptionId;
    const reason = `its subscription ${subscriptionName} was deleted, and no cluster may run outside a subscription.`;
    const stopped = await clusters.stopForOverdue(accountId, subscriptionId, reason);
    if (stopped.length > 0) {
      deps.logger?.warn(
        { accountId, subscriptionId, clusters: stopped },
        'stopped clusters that were running in a deleted subscription; they are left for operators to delete',
      );
    }
  }

  async function stopOverdue(accountId: string, subscription: SubscriptionSummary, balance: number, limit: number): Promise<void> {
    const name = subscription.name;
    const reason = `the balance of ${name} (${formatUsdCents(balance)}) is below the overdue limit of ${formatUsdCents(-limit)}. Add funds, then start the cluster again.`;
    const stopped = await clusters.stopForOverdue(accountId, subscription.id, reason);
    if (stopped.length === 0) return;
    await notify(accountId, {
      key: `overdue-stop:${subscription.id}:${randomUUID()}`,
      subject: `Clusters of ${name} were stopped`,
      lines: [
        `The balance of the subscription ${name} is ${formatUsdCents(balance)}, below the overdue limit of ${formatUsdCents(-limit)}.`,
        `These clusters were stopped (not deleted; their data is kept): ${stopped.join(', ')}.`,
        'Storage is still charged while they are stopped. Add funds, then start them again; a cluster set to restart when funded starts by itself once the balance is back above the minimum.',
      ],
      kind: 'OVERDUE_STOP',
      link: subscriptionLink(subscription.id),
      subscriptionId: subscription.id,
    });
  }

  /**
   * The runway notices are ordered most urgent first: when several thresholds are crossed at once (a small balance at
   * the first deploy), the owner gets one mail, the most urgent, and the others crossed with it are recorded as sent.
   */
  async function runwayNotices(accountId: string, subscription: SubscriptionSummary, balance: number, limit: number, hourCents: number) {
    const name = subscription.name;
    const hoursLeft = (balance + limit) / hourCents;
    const hoursToZero = balance / hourCents;
    const episode = clock.now().toISOString().slice(0, 7);
    const lasts = (text: string) => [
      `At the current rate of ${formatUsdCents(hourCents)} per hour, the balance of ${name} (${formatUsdCents(balance)}) lasts ${text}.`,
      'Add funds to keep your clusters running.',
    ];
    const runsOut = `${name}: your balance runs out soon`;
    const link = subscriptionLink(subscription.id);
    const crossed: Notice[] = [];
    if (hoursLeft < 24) {
      const hours = Math.floor(hoursLeft);
      crossed.push({
        key: `overdue-24h:${subscription.id}:${episode}`,
        subject: `${name}: clusters stop within 24 hours`,
        lines: [
          `At the current rate of ${formatUsdCents(hourCents)} per hour, the balance of ${name} reaches the overdue limit ${hours < 1 ? 'in less than an hour' : `in about ${countOf(hours, 'hour')}`}.`,
          'Then its running clusters are stopped. Add funds to keep them running.',
        ],
        kind: 'OVERDUE_WARNING',
        link,
        subscriptionId: subscription.id,
      });
    }
    if (hoursToZero < 24)
      crossed.push({
        key: `runway-1d:${subscription.id}:${episode}`,
        subject: runsOut,
        lines: lasts('less than a day'),
        kind: 'RUNWAY',
        link,
        subscriptionId: subscription.id,
      });
    else if (hoursToZero < 7 * 24) {
      const text = `about ${countOf(Math.floor(hoursToZero / 24), 'day')}`;
      crossed.push({
        key: `runway-7d:${subscription.id}:${episode}`,
        subject: runsOut,
        lines: lasts(text),
        kind: 'RUNWAY',
        link,
        subscriptionId: subscription.id,
      });
    }
    await notifyMostUrgent(accountId, crossed);
  }

  /**
   * Claims every notice crossed at once in one transaction and mails the first (the most urgent) when it is new; a
   * notice already sent is not sent again, and one crossed with a more urgent one is never sent on its own later. The
   * mail's notice goes into the owner's bell in the same transaction, under the same key.
   */
  async function notifyMostUrgent(accountId: string, crossed: Notice[]): Promise<boolean> {
    const [first] = crossed;
    if (!first) return false;
    const to = await auth.accountOwnerEmail(accountId);
    if (!to) return false;
    const mailId = await db.transaction(async (tx) => {
      const now = clock.now();
      const claimed: boolean[] = [];
      for (const notice of crossed) claimed.push(await repository.claimNotice(notice.key, accountId, now, tx));
      if (!claimed[0]) return undefined;
      await notices.write(
        {
          accountId,
          kind: first.kind,
          title: first.subject,
          body: first.lines.join(' '),
          link: first.link,
          subscriptionId: first.subscriptionId,
          key: first.key,
        },
        tx,
      );
      return mail.enqueue(noticeMail(to, first.subject, first.lines), tx);
    });
    if (!mailId) return false;
    // Like OTP mail: out now, not at the next sweep (which stays the safety net if the queue cannot be reached).
    await mail.dispatch(mailId);
    return true;
  }

  return {
    notify,

    /**
     * After charging: starts from the account's clusters that are not deleted, not from its live subscriptions, so a
     * cluster whose subscription is gone is stopped too. Per subscription of those clusters: below minus the overdue
     * limit its clusters are stopped; otherwise the runway warnings are mailed once each.
     */
    async guardAccount(accountId: string): Promise<void> {
      const notDeleted = await clusters.notDeletedOf(accountId);
      if (notDeleted.length === 0) return;
      const live = new Map((await subscriptions.list(accountId)).map((s) => [s.id, s]));
      const limit = await ledger.overdueLimit(accountId);
      // Stopping one subscription's clusters leaves the others' hourly cost as it is: read once.
      const hourCentsOf = await deps.hourCentsOf(accountId);
      for (const subscriptionId of new Set(notDeleted.map((cluster) => cluster.subscriptionId))) {
        const subscription = live.get(subscriptionId);
        if (!subscription) {
          await stopOrphans(
            accountId,
            subscriptionId,
            notDeleted.filter((cluster) => cluster.subscriptionId === subscriptionId),
          );
          continue;
        }
        const balance = subscription.balanceCents;
        if (balance < -limit) {
          await stopOverdue(accountId, subscription, balance, limit);
          continue;
        }
        const hourCents = hourCentsOf(subscriptionId);
        if (hourCents > 0) await runwayNotices(accountId, subscription, balance, limit, hourCents);
      }
    },

    /** Mails the owner 3 days before free credits expire, once per expiry, with what is left of the grants expiring then. */
    async creditExpiryNotices(accountId: string): Promise<void> {
      const now = clock.now();
      for (const subscription of await subscriptions.list(accountId)) {
        const expiring = new Map<number, number>();
        for (const grant of await ledger.freeCreditGrants(subscription.id)) {
          const at = grant.expiresAt.getTime();
          if (at - now.getTime() <= 3 * DAY) expiring.set(at, (expiring.get(at) ?? 0) + grant.remainingCents);
        }
        for (const [at, cents] of expiring) {
          const expiresAt = new Date(at);
          await notify(accountId, {
            key: `credit-expiry:${subscription.id}:${expiresAt.toISOString()}`,
            subject: `Free credits of ${subscription.name} expire soon`,
            lines: [
              `${formatUsdCents(cents)} of free credits on ${subscription.name} expire on ${expiresAt.toUTCString()}.`,
              'Free credits are spent before paid funds; what is left at expiry is lost.',
            ],
            kind: 'CREDIT_EXPIRY',
            link: subscriptionLink(subscription.id),
            subscriptionId: subscription.id,
          });
        }
      }
    },
  };
}

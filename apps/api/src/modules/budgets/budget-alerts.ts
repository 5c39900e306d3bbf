/**
 * Checking one budget against the month's spend: the thresholds crossed are recorded once per month and kind and mailed
 * to the owner and the account admins (one mail per check, naming the highest), and a reached hard cap stops the
 * subscription's running clusters. Run after each metering run's charges and when a budget is saved.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import type { ClustersService } from '../clusters/index.js';
import { randomUUID } from 'node:crypto';
import { budgetExceededMessage, type NoticeKind } from '@kumo/contract';
import { noticeMail, type MailService } from '../mail/index.js';
import type { NoticesService } from '../notices/index.js';
import { alertMail, stopMail, type BudgetMail } from './budget-mail.js';
import { capReached, crossedThresholds, monthKey, noLongerCrossed, type CapHorizon, type Spend } from './budget-rules.js';
import type { AlertKey, BudgetRow, BudgetsRepository } from './budgets.repository.js';

export function createBudgetAlerts(deps: {
  db: Database;
  repository: Pick<BudgetsRepository, 'alertsOf' | 'claim' | 'rearm' | 'recipients'>;
  clusters: Pick<ClustersService, 'stopForOverdue'>;
  mail: Pick<MailService, 'enqueue' | 'dispatch'>;
  /** The bell: every budget mail is also a notice to the same people. */
  notices: Pick<NoticesService, 'write'>;
  clock: Clock;
  /** How far the hard cap looks ahead, and how long a billable hour lasts in real time. */
  horizon: CapHorizon;
  hourMs: number;
  logger?: FastifyBaseLogger;
}) {
  const { db, repository, clusters, mail, clock, horizon } = deps;

  /**
   * Mails the owner and the account admins, and writes each of them the same notice, in the caller's transaction; the
   * mail ids to dispatch once it commits. `key` names the event, so a notice is never written twice for it.
   */
  async function enqueueMail(
    accountId: string,
    subscriptionId: string,
    notice: { kind: NoticeKind; key: string },
    message: BudgetMail,
    tx: Tx,
  ): Promise<string[]> {
    const recipients = await repository.recipients(accountId, tx);
    await deps.notices.write(
      {
        accountId,
        kind: notice.kind,
        key: notice.key,
        title: message.subject,
        body: message.lines.join(' '),
        link: `/subscriptions/${subscriptionId}`,
        subscriptionId,
        recipientUserIds: recipients.map((recipient) => recipient.userId),
      },
      tx,
    );
    const ids: string[] = [];
    for (const recipient of recipients) ids.push(await mail.enqueue(noticeMail(recipient.email, message.subject, message.lines), tx));
    return ids;
  }

  // Like OTP mail: out now, not at the next sweep (which stays the safety net if the queue cannot be reached).
  async function dispatch(ids: string[]): Promise<void> {
    for (const id of ids) await mail.dispatch(id);
  }

  /** Records and mails the thresholds newly crossed; with `rearm`, first forgets this month's alerts no longer crossed. */
  async function fireAlerts(accountId: string, name: string, budget: BudgetRow, spend: Spend, rearm: boolean): Promise<AlertKey[]> {
    const now = clock.now();
    const month = monthKey(now);
    let claimed: AlertKey[] = [];
    const ids = await db.transaction(async (tx) => {
      if (rearm) {
        const stale = noLongerCrossed(budget, spend, await repository.alertsOf(budget.subscriptionId, month, tx));
        for (const kind of ['ACTUAL', 'FORECAST'] as const) {
          const thresholds = stale.filter((alert) => alert.kind === kind).map((alert) => alert.threshold);
          await repository.rearm(budget.subscriptionId, month, kind, thresholds, tx);
        }
      }
      claimed = await repository.claim(budget.subscriptionId, month, crossedThresholds(budget, spend), now, tx);
      if (claimed.length === 0) return [];
      const key = `budget-alert:${budget.subscriptionId}:${month}:${claimed.map((alert) => `${alert.kind}-${alert.threshold}`).join(',')}`;
      return enqueueMail(
        accountId,
        budget.subscriptionId,
        { kind: 'BUDGET_ALERT', key },
        alertMail(name, budget, spend, claimed, { now, horizon, hourMs: deps.hourMs }),
        tx,
      );
    });
    await dispatch(ids);
    return claimed;
  }

  /**
   * A reached hard cap (the next hours would pass the budget) stops the subscription's running clusters (data kept),
   * and says why when it stopped any.
   */
  async function enforceCap(accountId: string, name: string, budget: BudgetRow, spend: Spend): Promise<string[]> {
    if (!capReached(budget, spend, horizon)) return [];
    const stopped = await clusters.stopForOverdue(accountId, budget.subscriptionId, budgetExceededMessage(name));
    if (stopped.length === 0) return [];
    // Each stop is its own event: the clusters stopped now were running until now.
    const notice = { kind: 'BUDGET_STOP' as const, key: `budget-stop:${budget.subscriptionId}:${randomUUID()}` };
    const ids = await db.transaction((tx) =>
      enqueueMail(accountId, budget.subscriptionId, notice, stopMail(name, budget, spend, stopped), tx),
    );
    await dispatch(ids);
    return stopped;
  }

  return {
    /** One budget checked against its spend: alerts first (from 90 % on they say when the clusters stop), then the cap. */
    async check(accountId: string, name: string, budget: BudgetRow, spend: Spend, options: { rearm: boolean }) {
      const claimed = await fireAlerts(accountId, name, budget, spend, options.rearm);
      const stopped = await enforceCap(accountId, name, budget, spend);
      return { claimed, stopped };
    },
  };
}

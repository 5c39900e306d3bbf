/**
 * What each four-eyes action checks and does (spec sections 4, 5 and 7): the words the approvers read, and the
 * change itself, run inside the approval's transaction with its entry in the customer's Staff access trail.
 */
import {
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  FREE_UNIT_DIMENSIONS,
  amountInWords,
  MESSAGES,
  METERING_DIMENSION_LABELS,
  METERING_UNIT_LABELS,
  TRANSACTION_CATEGORY_LABELS,
  centsToDecimalText,
  formatUsdCents,
  freeUnitsError,
  rateError,
  type AdminActionName,
  type ActionDetail,
  type AdminActionOrder,
  type ChangeServiceRatePayload,
  type MeteringDimension,
} from '@kumo/contract';
import { DAY, type Clock } from '../../clock.js';
import type { Tx } from '../../db/client.js';
import { badRequest, businessRule } from '../../errors.js';
import type { StaffActionEvent, StaffActionLog } from '../auth/index.js';
import type { ClustersService } from '../clusters/index.js';
import type { Ledger } from '../ledger/index.js';
import type { MailService } from '../mail/index.js';
import type { MeteringService, Rate } from '../metering/index.js';
import type { NoticeDraft, NoticesService } from '../notices/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { rateChangeMail } from './approval-mail.js';
import type { AdminOperationRow, OperationsRepository } from './operations.repository.js';

export const dollarsToCents = (dollars: number) => Math.round(dollars * 100);

export function createAdminActions(deps: {
  repository: OperationsRepository;
  ledger: Ledger;
  subscriptions: SubscriptionsService;
  clusters: ClustersService;
  metering: MeteringService;
  mail: MailService;
  clock: Clock;
  staffActions: StaffActionLog;
  notices: Pick<NoticesService, 'write'>;
}) {
  const { repository, ledger, subscriptions, clusters, metering, mail, clock, staffActions, notices } = deps;

  /** "12.3456" → 123456 (dollars × 10,000), digit by digit. */
  const rateE4 = (text: string) => {
    const [whole, fraction = ''] = text.split('.');
    return Number(whole) * 10_000 + Number(fraction.padEnd(4, '0'));
  };

  /**
   * The rates a change_service_rate payload sets, checked with the rules of spec section 5: errors per field as
   * service_rate_errors.<DIMENSION> and free_unit_errors.<DIMENSION>. Effective at midnight UTC of the date, or now.
   */
  async function plannedRates(
    payload: ChangeServiceRatePayload,
    accountId: string,
    atApproval = false,
  ): Promise<{ rates: Rate[]; effectiveFrom: Date }> {
    const errors: Record<string, string> = {};
    const now = clock.now();
    let effectiveFrom = now;
    if (payload.effective_date) {
      const day = new Date(`${payload.effective_date}T00:00:00Z`);
      const today = new Date(now.toISOString().slice(0, 10) + 'T00:00:00Z');
      // At approval the date was checked when asked for; midnight may have passed since (then the rates apply now).
      const outOfRange = day < today || day.getTime() > today.getTime() + ADMIN_LIMITS.rateEffectiveMaxDaysAhead * DAY;
      if (Number.isNaN(day.getTime()) || (outOfRange && !atApproval)) errors.effective_date = ADMIN_MESSAGES.effectiveDateInvalid;
      else effectiveFrom = day < now ? now : day;
    }
    const current = await metering.ratesAt(accountId, effectiveFrom);
    const seen = new Set<MeteringDimension>();
    const rates: Rate[] = [];
    for (const item of payload.updated_service_rates) {
      if (seen.has(item.dimension)) continue;
      seen.add(item.dimension);
      const rateProblem = rateError(item.rate);
      if (rateProblem) errors[`service_rate_errors.${item.dimension}`] = rateProblem;
      const hasFree = (FREE_UNIT_DIMENSIONS as readonly string[]).includes(item.dimension);
      const freeProblem = hasFree && item.freeUnits !== undefined ? freeUnitsError(item.freeUnits) : undefined;
      if (freeProblem) errors[`free_unit_errors.${item.dimension}`] = freeProblem;
      if (rateProblem || freeProblem) continue;
      const before = current.find((r) => r.dimension === item.dimension);
      rates.push({
        dimension: item.dimension,
        rateE4: rateE4(String(item.rate).trim()),
        freeUnits: hasFree ? (item.freeUnits !== undefined ? Number(String(item.freeUnits).trim()) : (before?.freeUnits ?? 0)) : 0,
      });
    }
    if (Object.keys(errors).length > 0) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed, errors);
    return { rates, effectiveFrom };
  }

  /**
   * Checks the action can be done for this customer now, and says in words what it will do (for the approvers' mail
   * and the Approvals page). `atApproval` reads a waiting request as its approval would (a date asked for yesterday).
   */
  async function describe(order: AdminActionOrder, accountId: string, atApproval = false): Promise<ActionDetail[]> {
    switch (order.action_name) {
      case 'add_funds': {
        const p = order.action_payload;
        const subscription = await subscriptions.requireOwned(accountId, p.subscription_id);
        const cents = dollarsToCents(p.amount);
        return [
          { label: 'Subscription', value: subscription.name },
          { label: 'Amount', value: `${formatUsdCents(cents)} (${amountInWords(cents)})` },
          { label: 'Category', value: TRANSACTION_CATEGORY_LABELS[p.category] },
          { label: 'Remark', value: p.remark || '(none)' },
        ];
      }
      case 'change_overdue_limit': {
        const cents = dollarsToCents(order.action_payload.outstanding_limit);
        return [{ label: 'New overdue limit', value: `${formatUsdCents(cents)} (${cents === 0 ? 'Zero' : amountInWords(cents)})` }];
      }
      case 'delete_cluster': {
        const target = await clusters.staffDeletionTarget(accountId, order.action_payload.deployment_id);
        return [
          { label: 'Cluster', value: target.name },
          { label: 'Subscription', value: target.subscriptionName },
          { label: 'Note', value: 'A deleted cluster cannot be restored.' },
        ];
      }
      case 'change_service_rate': {
        const { rates, effectiveFrom } = await plannedRates(order.action_payload, accountId, atApproval);
        return [
          { label: 'Effective from', value: effectiveFrom.toISOString().slice(0, 10) },
          ...rates.map((r) => ({
            label: METERING_DIMENSION_LABELS[r.dimension],
            value: `$${(r.rateE4 / 10_000).toFixed(4)} ${METERING_UNIT_LABELS[r.dimension]}${r.freeUnits > 0 ? `, ${r.freeUnits} free units a month` : ''}`,
          })),
        ];
      }
    }
  }

  /** Runs the approved action inside the approval's transaction; returns what changed, in words, and a mail to send after it. */
  async function execute(
    row: AdminOperationRow,
    requester: { userId: string; email: string },
    approver: string,
    tx: Tx,
  ): Promise<{ outcome: string; message: string; mailId?: string }> {
    const payload = row.payload;
    // The customer's Staff access trail names who asked and who approved, in the action's own transaction.
    const trail = (event: StaffActionEvent, did: string) =>
      staffActions.record({ accountId: row.accountId, staffUserId: requester.userId, event, did: `${did}, approved by ${approver}` }, tx);
    // The owner reads it in the bell too: once per approved operation.
    const notice = (kind: NoticeDraft['kind'], title: string, body: string, link: string) =>
      notices.write({ accountId: row.accountId, kind, title, body, link, key: `admin-op:${row.id}` }, tx);
    switch (row.actionName as AdminActionName) {
      case 'add_funds': {
        const cents = dollarsToCents(Number(payload.amount));
        const subscription = await subscriptions.requireOwned(row.accountId, String(payload.subscription_id), tx);
        await ledger.addAdminFunds(
          {
            subscriptionId: String(payload.subscription_id),
            amountCents: cents,
            idempotencyKey: `admin-op:${row.id}`,
            remark: typeof payload.remark === 'string' ? payload.remark : '',
            actorUserId: requester.userId,
            category: payload.category as Parameters<Ledger['addAdminFunds']>[0]['category'],
          },
          tx,
        );
        const category = TRANSACTION_CATEGORY_LABELS[payload.category as keyof typeof TRANSACTION_CATEGORY_LABELS];
        await trail('FUNDS_ADDED', `added ${formatUsdCents(cents)} to subscription ${subscription.name} (${category})`);
        await notice(
          'FUNDS_ADDED',
          `${formatUsdCents(cents)} added to ${subscription.name}`,
          `Support added ${formatUsdCents(cents)} to the subscription ${subscription.name} (${category}).`,
          `/subscriptions/${subscription.id}`,
        );
        return {
          outcome: `Added ${formatUsdCents(cents)} to subscription ${String(payload.subscription_id)}`,
          message: ADMIN_MESSAGES.fundsAdded,
        };
      }
      case 'change_overdue_limit': {
        const cents = dollarsToCents(Number(payload.outstanding_limit));
        const before = await ledger.overdueLimit(row.accountId, tx);
        await ledger.setOverdueLimit(row.accountId, cents, tx);
        await trail('OVERDUE_LIMIT_CHANGED', `changed the overdue limit from ${formatUsdCents(before)} to ${formatUsdCents(cents)}`);
        return {
          outcome: `Overdue limit ${centsToDecimalText(before)} → ${centsToDecimalText(cents)}`,
          message: ADMIN_MESSAGES.overdueChanged,
        };
      }
      case 'delete_cluster': {
        const deleted = await clusters.deleteByStaff(
          row.accountId,
          String(payload.deployment_id),
          { userId: requester.userId, email: requester.email, approvedBy: approver },
          tx,
        );
        await trail('CLUSTER_DELETION_APPROVED', `deleted cluster ${deleted.name}`);
        await notice(
          'CLUSTER_DELETED',
          `Cluster ${deleted.name} is being deleted`,
          `Support started the deletion of the cluster ${deleted.name}. Staff access lists who asked and who approved it.`,
          '/clusters',
        );
        return { outcome: `Deletion of cluster ${deleted.name} started`, message: ADMIN_MESSAGES.clusterDeletionStarted };
      }
      case 'change_service_rate': {
        const { rates, effectiveFrom } = await plannedRates(payload as ChangeServiceRatePayload, row.accountId, true);
        await metering.setRates(row.accountId, rates, effectiveFrom, requester.userId, tx);
        await trail('SERVICE_RATES_CHANGED', `changed the service rates from ${effectiveFrom.toISOString().slice(0, 10)}`);
        // The owner hears of new rates before they apply (they take effect at the earliest now).
        const owner = await repository.customer(row.customerUserId);
        const lines = rates.map(
          (r) =>
            `${METERING_DIMENSION_LABELS[r.dimension]}: $${(r.rateE4 / 10_000).toFixed(4)} ${METERING_UNIT_LABELS[r.dimension]}${r.freeUnits > 0 ? `, ${r.freeUnits} free units a month` : ''}`,
        );
        const mailId = owner ? await mail.enqueue(rateChangeMail(owner.email, effectiveFrom, lines), tx) : undefined;
        const day = effectiveFrom.toISOString().slice(0, 10);
        await notice(
          'SERVICE_RATES_CHANGED',
          `Your service rates change on ${day}`,
          `From ${day} (UTC): ${lines.join('; ')}. Usage before that date is charged at the previous rates.`,
          '/subscriptions',
        );
        return {
          outcome: `Rates from ${effectiveFrom.toISOString()}: ${rates.map((r) => `${r.dimension} ${r.rateE4 / 10_000} (${r.freeUnits} free)`).join(', ')}`,
          message: ADMIN_MESSAGES.ratesChanged,
          mailId,
        };
      }
      default:
        throw businessRule('VALIDATION_FAILED', MESSAGES.validationFailed);
    }
  }

  return { describe, execute };
}

/**
 * Monthly statements of a subscription: the balance at the month's start, every movement of the month as the ledger
 * applied it (top-ups by card and automatic, staff additions, free credits granted and expired, refunds, paid funds
 * moved in from or out to another subscription), the month's usage and the balance at its end. The month's usage is
 * that of its hours, as every screen counts it (docs/metering.md), from metering's export; the debits posted in the
 * month for earlier months' hours are lines of their own, and so is the usage of the month's last hours debited
 * after it ended, so opening plus the movements is still the ledger's closing balance.
 */
import { MESSAGES, statementMonthsSince, type MeteringDimension } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { badRequest } from '../../errors.js';
import type { EntryKind, Ledger } from '../ledger/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { AUTO_TOP_UP_EVENT } from './automatic-purchases.js';
import type { BillingRepository } from './billing.repository.js';

/**
 * A subscription's usage of the hours of a range, summed per cluster and dimension, and how the usage debits posted
 * under `postedKeys` split by the month of the hours they paid for (metering's, attached by the wiring).
 */
export type StatementUsage = (
  subscriptionId: string,
  range: { from: Date; to: Date },
  postedKeys: string[],
) => Promise<{
  byClusterAndService: { clusterId: string; clusterName: string; dimension: MeteringDimension; amountCents: number }[];
  postedByMonthOfUse: Map<string, number>;
}>;

export interface StatementMovement {
  at: Date;
  amountCents: number;
  /** A top-up's receipt, a staff addition's reason, a grant's expiry: what the line says besides its amount. */
  detail: string;
}

export interface StatementValues {
  subscriptionId: string;
  subscriptionName: string;
  /** The account's owner, whose statement it is. */
  owner: { name: string; email: string };
  month: string;
  openingCents: number;
  /** Card top-ups (detail: CARD or AUTOMATIC, and the receipt). */
  topUps: (StatementMovement & { automatic: boolean })[];
  staffAdditions: StatementMovement[];
  creditsGranted: StatementMovement[];
  /** Negative amounts: money that left the balance. */
  creditsExpired: StatementMovement[];
  refunds: StatementMovement[];
  /** Paid funds moved in from a deleted subscription (positive) or out to another one (negative). */
  transfers: (StatementMovement & { direction: 'IN' | 'OUT' })[];
  /** The usage of the month's hours (positive). */
  usageCents: number;
  /** Debits posted in the month for hours of earlier months, per month of use (positive). */
  earlierUsage: { month: string; amountCents: number }[];
  /** The usage of the month's hours debited after the month ended (positive): in a later balance, not this one. */
  postedLaterCents: number;
  usageByCluster: {
    clusterId: string;
    clusterName: string;
    amountCents: number;
    services: { dimension: MeteringDimension; amountCents: number }[];
  }[];
  closingCents: number;
}

const monthStart = (month: string) => new Date(`${month}-01T00:00:00Z`);
const monthAfter = (month: string) => {
  const start = monthStart(month);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
};
export function createStatements(deps: {
  repository: Pick<BillingRepository, 'purchasesOfEntries' | 'accountOwner'>;
  ledger: Pick<Ledger, 'periodEntries'>;
  subscriptions: Pick<SubscriptionsService, 'requireOwned'>;
  clock: Clock;
}) {
  const { repository, ledger, subscriptions, clock } = deps;
  let usageOf: StatementUsage = async () => ({ byClusterAndService: [], postedByMonthOfUse: new Map() });

  return {
    /** Where the usage breakdown comes from (metering, attached by the wiring). */
    attachStatementUsage(usage: StatementUsage): void {
      usageOf = usage;
    },

    async statement(accountId: string, subscriptionId: string, month: string): Promise<StatementValues> {
      const subscription = await subscriptions.requireOwned(accountId, subscriptionId);
      if (!statementMonthsSince(subscription.createdAt, clock.now()).includes(month)) {
        throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed, { month: 'There is no statement for this month.' });
      }
      const range = { from: monthStart(month), to: monthAfter(month) };
      const [{ openingCents, entries }, owner] = await Promise.all([
        ledger.periodEntries(subscriptionId, range),
        repository.accountOwner(accountId),
      ]);
      const usageEntries = entries.filter((e) => e.kind === 'USAGE');
      const usage = await usageOf(
        subscriptionId,
        range,
        usageEntries.map((e) => e.idempotencyKey),
      );
      const paidBy = new Map(
        (await repository.purchasesOfEntries(entries.filter((e) => e.kind === 'PURCHASE').map((e) => e.id))).map((p) => [
          p.ledgerEntryId,
          p,
        ]),
      );
      const values: StatementValues = {
        subscriptionId,
        subscriptionName: subscription.name,
        owner: owner ?? { name: '', email: '' },
        month,
        openingCents,
        topUps: [],
        staffAdditions: [],
        creditsGranted: [],
        creditsExpired: [],
        refunds: [],
        transfers: [],
        usageCents: 0,
        earlierUsage: [],
        postedLaterCents: 0,
        usageByCluster: [],
        closingCents: entries.at(-1)?.balanceAfterCents ?? openingCents,
      };
      for (const entry of entries) {
        const line = (detail: string) => ({ at: entry.createdAt, amountCents: entry.amountCents, detail });
        // The column is text; every kind the ledger writes must land in a section, or closing would not add up.
        const kind = entry.kind as EntryKind;
        switch (kind) {
          case 'PURCHASE': {
            const purchase = paidBy.get(entry.id);
            values.topUps.push({ ...line(purchase?.receiptId ?? ''), automatic: purchase?.eventName === AUTO_TOP_UP_EVENT });
            break;
          }
          case 'ADMIN_FUNDS':
            values.staffAdditions.push(line(entry.category));
            break;
          case 'FREE_CREDIT_GRANT':
            values.creditsGranted.push(line(entry.expiresAt ? `expires ${entry.expiresAt.toISOString()}` : ''));
            break;
          case 'CREDIT_EXPIRY':
            values.creditsExpired.push(line(''));
            break;
          case 'REFUND':
            values.refunds.push(line(entry.remark));
            break;
          case 'TRANSFER_IN':
          case 'TRANSFER_OUT':
            values.transfers.push({ ...line(''), direction: kind === 'TRANSFER_IN' ? 'IN' : 'OUT' });
            break;
          case 'USAGE':
            // Split by the month of use below.
            break;
          default:
            unhandledKind(kind);
        }
      }
      splitUsage(values, usage, -usageEntries.reduce((sum, e) => sum + e.amountCents, 0));
      for (const row of usage.byClusterAndService) {
        let cluster = values.usageByCluster.find((c) => c.clusterId === row.clusterId);
        if (!cluster) {
          cluster = { clusterId: row.clusterId, clusterName: row.clusterName, amountCents: 0, services: [] };
          values.usageByCluster.push(cluster);
        }
        cluster.amountCents += row.amountCents;
        const service = cluster.services.find((s) => s.dimension === row.dimension);
        if (service) service.amountCents += row.amountCents;
        else cluster.services.push({ dimension: row.dimension, amountCents: row.amountCents });
      }
      return values;
    },
  };
}

/**
 * The month's usage by its hours, the debits of earlier months' hours posted in it, and the usage of its hours posted
 * after it: posted in the month = usage - posted later + earlier. A usage debit that no metering run made (none is)
 * counts as usage of the month it was posted in, so the statement still adds up.
 */
function splitUsage(values: StatementValues, usage: Awaited<ReturnType<StatementUsage>>, postedCents: number): void {
  const usageCents = usage.byClusterAndService.reduce((sum, row) => sum + row.amountCents, 0);
  let attributed = 0;
  for (const [month, cents] of [...usage.postedByMonthOfUse].sort(([a], [b]) => a.localeCompare(b))) {
    attributed += cents;
    if (month < values.month && cents !== 0) values.earlierUsage.push({ month, amountCents: cents });
  }
  const postedOfMonth = usage.postedByMonthOfUse.get(values.month) ?? 0;
  values.postedLaterCents = usageCents - postedOfMonth;
  values.usageCents = usageCents + (postedCents - attributed);
}

/** Everything that moved the balance in the month, signed: opening plus this is the closing balance. */
export function movementsCents(s: StatementValues): number {
  const sum = (lines: { amountCents: number }[]) => lines.reduce((total, line) => total + line.amountCents, 0);
  return (
    sum(s.topUps) +
    sum(s.staffAdditions) +
    sum(s.creditsGranted) +
    sum(s.creditsExpired) +
    sum(s.refunds) +
    sum(s.transfers) -
    s.usageCents -
    sum(s.earlierUsage) +
    s.postedLaterCents
  );
}

/** A kind the statement has no section for: a compile error when the ledger gains one, a 500 if the data holds one. */
function unhandledKind(kind: never): never {
  throw new Error(`A ledger entry of kind ${String(kind)} has no place in the statement`);
}

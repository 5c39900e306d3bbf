/**
 * Monthly statements of a subscription: the balance at the month's start, every movement of the month as the ledger
 * applied it (top-ups by card and automatic, staff additions, free credits granted and expired, refunds, paid funds
 * moved in from or out to another subscription, usage by cluster and service) and the balance at its end. Opening plus the movements is the closing balance, because both
 * come from the same entries; usage is broken down from metering's export, which adds up to the usage debits.
 */
import { MESSAGES, statementMonthsSince, type MeteringDimension } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { badRequest } from '../../errors.js';
import type { EntryKind, Ledger } from '../ledger/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { AUTO_TOP_UP_EVENT } from './automatic-purchases.js';
import type { BillingRepository } from './billing.repository.js';

/** A subscription's usage debited in a range, summed per cluster and dimension (metering's, attached by the wiring). */
export type StatementUsage = (
  subscriptionId: string,
  range: { from: Date; to: Date },
) => Promise<{ clusterId: string; clusterName: string; dimension: MeteringDimension; amountCents: number }[]>;

export interface StatementMovement {
  at: Date;
  amountCents: number;
  /** A top-up's receipt, a staff addition's reason, a grant's expiry: what the line says besides its amount. */
  detail: string;
}

export interface StatementValues {
  subscriptionId: string;
  subscriptionName: string;
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
  usageCents: number;
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
  repository: Pick<BillingRepository, 'purchasesOfEntries'>;
  ledger: Pick<Ledger, 'periodEntries'>;
  subscriptions: Pick<SubscriptionsService, 'requireOwned'>;
  clock: Clock;
}) {
  const { repository, ledger, subscriptions, clock } = deps;
  let usageOf: StatementUsage = async () => [];

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
      const [{ openingCents, entries }, usage] = await Promise.all([
        ledger.periodEntries(subscriptionId, range),
        usageOf(subscriptionId, range),
      ]);
      const paidBy = new Map(
        (await repository.purchasesOfEntries(entries.filter((e) => e.kind === 'PURCHASE').map((e) => e.id))).map((p) => [
          p.ledgerEntryId,
          p,
        ]),
      );
      const values: StatementValues = {
        subscriptionId,
        subscriptionName: subscription.name,
        month,
        openingCents,
        topUps: [],
        staffAdditions: [],
        creditsGranted: [],
        creditsExpired: [],
        refunds: [],
        transfers: [],
        usageCents: 0,
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
            values.usageCents -= entry.amountCents;
            break;
          default:
            unhandledKind(kind);
        }
      }
      for (const row of usage) {
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

/** Everything that moved the balance in the month, signed: opening plus this is the closing balance. */
export function movementsCents(s: StatementValues): number {
  const sum = (lines: StatementMovement[]) => lines.reduce((total, line) => total + line.amountCents, 0);
  return (
    sum(s.topUps) + sum(s.staffAdditions) + sum(s.creditsGranted) + sum(s.creditsExpired) + sum(s.refunds) + sum(s.transfers) - s.usageCents
  );
}

/** A kind the statement has no section for: a compile error when the ledger gains one, a 500 if the data holds one. */
function unhandledKind(kind: never): never {
  throw new Error(`A ledger entry of kind ${String(kind)} has no place in the statement`);
}

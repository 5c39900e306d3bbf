/**
 * The consumption export: a subscription's usage by the hour of use (docs/metering.md), the same charges the cost
 * screens sum. A charge belongs to the period its billable hour began in, whenever its debit was posted (the last
 * hours of a month are often debited in the next one). Each charge is also split as the ledger split its run's
 * debit (key `metering:<run id>:<subscription id>`): the debit's free-credit part covers the run's charges in hour
 * order, so a charge may show as two rows, the part free credits paid and the part paid from funds.
 */
import type { ConsumptionGranularity, PaidFrom } from '@kumo/contract';
import type { Ledger } from '../ledger/index.js';
import type { ChargeCursor, ConsumptionExportRepository, ExportCharge } from './consumption-export.repository.js';

/** Charges read per batch: a year of a subscription's hours streams in a few hundred reads, never all at once. */
const CHARGES_PER_BATCH = 5_000;

/** The charges of one period, cluster, dimension and source of payment, added together. */
export interface UsageExportRow extends Omit<ExportCharge, 'runId'> {
  periodStart: Date;
  paidFrom: PaidFrom;
}

/** The start of the UTC hour, day or month holding `at`. */
export function periodStartOf(at: Date, granularity: ConsumptionGranularity): Date {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  if (granularity === 'MONTH') return new Date(Date.UTC(y, m, 1));
  if (granularity === 'DAY') return new Date(Date.UTC(y, m, at.getUTCDate()));
  return new Date(Date.UTC(y, m, at.getUTCDate(), at.getUTCHours()));
}

/** A charge split into what free credits paid and what funds paid; quantities go with the cents, in proportion. */
export function splitCharge(charge: ExportCharge, freeCents: number): { paidFrom: PaidFrom; share: ExportCharge }[] {
  if (charge.amountCents === 0) return [{ paidFrom: freeCents > 0 ? 'FREE_CREDITS' : 'FUNDS', share: charge }];
  if (freeCents >= charge.amountCents) return [{ paidFrom: 'FREE_CREDITS', share: charge }];
  if (freeCents <= 0) return [{ paidFrom: 'FUNDS', share: charge }];
  const part = (micros: number) => Math.round((micros * freeCents) / charge.amountCents);
  const free = { ...charge, amountCents: freeCents, quantityMicros: part(charge.quantityMicros), freeMicros: part(charge.freeMicros) };
  const funds = {
    ...charge,
    amountCents: charge.amountCents - freeCents,
    quantityMicros: charge.quantityMicros - free.quantityMicros,
    freeMicros: charge.freeMicros - free.freeMicros,
  };
  return [
    { paidFrom: 'FREE_CREDITS', share: free },
    { paidFrom: 'FUNDS', share: funds },
  ];
}

/** Rows of one period, summed per cluster, dimension, rate and source of money, in a stable order. */
class PeriodRows {
  private readonly rows = new Map<string, UsageExportRow>();
  constructor(readonly periodStart: Date) {}

  add(charge: ExportCharge, paidFrom: PaidFrom): void {
    const key = `${charge.clusterId}|${charge.dimension}|${charge.rateE4}|${paidFrom}`;
    const row = this.rows.get(key);
    if (row) {
      row.quantityMicros += charge.quantityMicros;
      row.freeMicros += charge.freeMicros;
      row.amountCents += charge.amountCents;
      return;
    }
    const { clusterId, clusterName, dimension, quantityMicros, freeMicros, rateE4, amountCents } = charge;
    this.rows.set(key, {
      periodStart: this.periodStart,
      clusterId,
      clusterName,
      dimension,
      quantityMicros,
      freeMicros,
      rateE4,
      amountCents,
      paidFrom,
    });
  }

  sorted(): UsageExportRow[] {
    const order = (r: UsageExportRow) => `${r.clusterName}|${r.clusterId}|${r.dimension}|${r.rateE4}|${r.paidFrom}`;
    return [...this.rows.values()].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  }
}

/** The run a metering debit paid for, from its idempotency key. */
export function runOf(idempotencyKey: string): string | null {
  const match = /^metering:([0-9a-f-]{36}):/.exec(idempotencyKey);
  return match ? match[1]! : null;
}

/** The ledger key of a run's debit of a subscription (charging-run.ts). */
export const usageDebitKey = (runId: string, subscriptionId: string) => `metering:${runId}:${subscriptionId}`;

export function createConsumptionExport(deps: {
  repository: Pick<ConsumptionExportRepository, 'chargesOfHours' | 'runCentsBefore'>;
  ledger: Pick<Ledger, 'usageDebitsByKey'>;
}) {
  const { repository, ledger } = deps;

  /**
   * What free credits have left to pay of each run's charges from the first hour of the range on: the debit's
   * free-credit part less the run's charges of earlier hours (they took it first).
   */
  async function freeCreditsLeft(subscriptionId: string, runIds: string[], from: Date): Promise<Map<string, number>> {
    const [debits, before] = await Promise.all([
      ledger.usageDebitsByKey(
        subscriptionId,
        runIds.map((run) => usageDebitKey(run, subscriptionId)),
      ),
      repository.runCentsBefore(subscriptionId, runIds, from),
    ]);
    const free = new Map(debits.map((debit) => [runOf(debit.idempotencyKey), debit.freeCreditsCents]));
    return new Map(runIds.map((run) => [run, Math.max(0, (free.get(run) ?? 0) - (before.get(run) ?? 0))]));
  }

  /** The rows of a subscription's usage of the hours that began in [from, to), period by period as the batches arrive. */
  return async function* usageRows(
    subscriptionId: string,
    range: { from: Date; to: Date },
    granularity: ConsumptionGranularity,
  ): AsyncGenerator<UsageExportRow[]> {
    const freeLeft = new Map<string, number>();
    let cursor: ChargeCursor | null = null;
    let period: PeriodRows | null = null;
    for (;;) {
      const charges = await repository.chargesOfHours(subscriptionId, range, cursor, CHARGES_PER_BATCH);
      if (charges.length === 0) break;
      cursor = charges[charges.length - 1]!.cursor;
      const newRuns = [...new Set(charges.map((charge) => charge.runId))].filter((run) => !freeLeft.has(run));
      for (const [run, cents] of await freeCreditsLeft(subscriptionId, newRuns, range.from)) freeLeft.set(run, cents);
      for (const charge of charges) {
        const start = periodStartOf(charge.hourStart, granularity);
        if (period?.periodStart.getTime() !== start.getTime()) {
          if (period) yield period.sorted();
          period = new PeriodRows(start);
        }
        const left = freeLeft.get(charge.runId) ?? 0;
        // A charge that cost nothing goes with the money the run was still drawing on.
        const freeCents = charge.amountCents === 0 ? left : Math.min(left, charge.amountCents);
        if (charge.amountCents > 0) freeLeft.set(charge.runId, left - freeCents);
        for (const { paidFrom, share } of splitCharge(charge, freeCents)) period.add(share, paidFrom);
      }
      if (charges.length < CHARGES_PER_BATCH) break;
    }
    if (period) yield period.sorted();
  };
}
export type ConsumptionExport = ReturnType<typeof createConsumptionExport>;

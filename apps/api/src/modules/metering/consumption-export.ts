/**
 * The consumption export: usage rows that add up to the ledger's usage debits to the cent. It walks the ledger's
 * usage debits of the range in ledger order, a batch at a time, and reads the charges of each debit's metering run
 * (its key is `metering:<run id>:<subscription id>`). A row belongs to the period its debit was made in (billable
 * hours are charged as they begin), and a debit's free-credit part covers its charges in hour order, so a charge may
 * show as two rows: the part free credits paid and the part paid from funds, as the ledger split it.
 */
import type { ConsumptionGranularity, PaidFrom } from '@kumo/contract';
import type { Ledger } from '../ledger/index.js';
import type { ConsumptionExportRepository, ExportCharge } from './consumption-export.repository.js';

/** Debits read per batch: a year of hourly runs streams in a few hundred reads, never all at once. */
const DEBITS_PER_BATCH = 500;

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

/** The run a metering debit paid for, from its idempotency key. */
function runOf(idempotencyKey: string): string | null {
  const match = /^metering:([0-9a-f-]{36}):/.exec(idempotencyKey);
  return match ? match[1]! : null;
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

export function createConsumptionExport(deps: {
  repository: Pick<ConsumptionExportRepository, 'chargesOfRuns'>;
  ledger: Pick<Ledger, 'usageDebits'>;
}) {
  const { repository, ledger } = deps;

  /** The rows of a subscription's usage debited in [from, to), period by period as the batches arrive. */
  return async function* usageRows(
    subscriptionId: string,
    range: { from: Date; to: Date },
    granularity: ConsumptionGranularity,
  ): AsyncGenerator<UsageExportRow[]> {
    let afterSeq = 0;
    let period: PeriodRows | null = null;
    for (;;) {
      const debits = await ledger.usageDebits(subscriptionId, range, afterSeq, DEBITS_PER_BATCH);
      if (debits.length === 0) break;
      afterSeq = debits[debits.length - 1]!.seq;
      const runs = debits.map((debit) => runOf(debit.idempotencyKey)).filter((run): run is string => run !== null);
      const charges = new Map<string, ExportCharge[]>();
      for (const charge of await repository.chargesOfRuns(subscriptionId, runs)) {
        charges.set(charge.runId, [...(charges.get(charge.runId) ?? []), charge]);
      }
      for (const debit of debits) {
        const start = periodStartOf(debit.createdAt, granularity);
        if (period?.periodStart.getTime() !== start.getTime()) {
          if (period) yield period.sorted();
          period = new PeriodRows(start);
        }
        let freeLeft = debit.freeCreditsCents;
        for (const charge of charges.get(runOf(debit.idempotencyKey) ?? '') ?? []) {
          // A charge that cost nothing goes with the money the run was still drawing on.
          const freeCents = charge.amountCents === 0 ? freeLeft : Math.min(freeLeft, charge.amountCents);
          freeLeft -= charge.amountCents === 0 ? 0 : freeCents;
          for (const { paidFrom, share } of splitCharge(charge, freeCents)) period.add(share, paidFrom);
        }
      }
      if (debits.length < DEBITS_PER_BATCH) break;
    }
    if (period) yield period.sorted();
  };
}
export type ConsumptionExport = ReturnType<typeof createConsumptionExport>;

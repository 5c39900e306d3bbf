import { METERING_UNITS, MESSAGES, type RateCard } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { HOUR } from '../../clock.js';
import type { Database, DbOrTx } from '../../db/client.js';
import { badRequest } from '../../errors.js';
import type { MeteringRepository } from './metering.repository.js';
import { DEFAULT_RATES, clusterHourCents, hourCents, round6, type Rate } from './rate-card.js';

/** One hour of real time; a billable hour of the simulated cloud is shorter. */
export const REAL_HOUR_MS = HOUR;

/**
 * The account's rates: those in force at a moment (staff-set rows over the default card), what its clusters cost per
 * billable hour now, the rate card the customer sees, and new rates set by staff.
 */
export function createMeteringRates(deps: {
  db: Database;
  repository: Pick<MeteringRepository, 'rateRows' | 'usageMix' | 'insertRates'>;
  clock: Clock;
}) {
  const { db, repository, clock } = deps;

  async function ratesAt(accountId: string, at: Date, tx?: DbOrTx): Promise<Rate[]> {
    const rows = await repository.rateRows(accountId, tx);
    return DEFAULT_RATES.map((fallback) => {
      const row = rows.find((r) => r.dimension === fallback.dimension && r.effectiveFrom.getTime() <= at.getTime());
      return row ? { dimension: fallback.dimension, rateE4: row.rateE4, freeUnits: row.freeUnits } : fallback;
    });
  }

  /**
   * What the clusters cost per billable hour now, per subscription, at today's rates; and, read in the same pass, the
   * running query engines' part of it (`queryEngines`: charged when their hour has ended, see the hard cap in
   * docs/spend-control.md). Money is told in billing time: a billable hour is a real hour with AWS and a shorter one in
   * the faster simulated cloud, and it costs the same in both, so the figure does not depend on how fast the cloud runs.
   * Read in `tx` when given (a start's check under the subscription's lock).
   */
  async function hourCentsOf(accountId: string, filter: { clusterId?: string }, tx?: DbOrTx) {
    const [rates, mix] = await Promise.all([ratesAt(accountId, clock.now(), tx), repository.usageMix(accountId, filter, tx)]);
    const engineRate = rates.find((rate) => rate.dimension === 'QUERY_ENGINES')!;
    const all = new Map<string, number>();
    const engines = new Map<string, number>();
    const add = (sums: Map<string, number>, subscriptionId: string, cents: number) =>
      sums.set(subscriptionId, (sums.get(subscriptionId) ?? 0) + cents);
    for (const group of mix) {
      // What a cluster uses now is the clusters module's to say, by its status: its directory's `usage`.
      if (group.usage === 'none') continue;
      add(all, group.subscriptionId, clusterHourCents(rates, group.usage, group.hasBackup, group.queryEngineCores) * group.count);
      if (group.usage === 'running')
        add(engines, group.subscriptionId, hourCents(round6(group.queryEngineCores), engineRate.rateE4) * group.count);
    }
    return Object.assign((subscriptionId: string) => all.get(subscriptionId) ?? 0, {
      queryEngines: (subscriptionId: string) => engines.get(subscriptionId) ?? 0,
    });
  }

  return {
    ratesAt,
    hourCentsOf,

    /** The account's rate rows, newest first: the rate history staff see. */
    rateChanges: (accountId: string) => repository.rateRows(accountId),

    async rateCard(accountId: string): Promise<RateCard> {
      const now = clock.now();
      const rates = await ratesAt(accountId, now);
      const rows = await repository.rateRows(accountId);
      const effective = rows.find((r) => r.effectiveFrom.getTime() <= now.getTime())?.effectiveFrom ?? new Date(0);
      return {
        effective_date: effective.toISOString(),
        service_rate: Object.fromEntries(rates.map((r) => [r.dimension, r.rateE4 / 10_000])) as RateCard['service_rate'],
        free_units: {
          DATA_PROCESS: rates.find((r) => r.dimension === 'DATA_PROCESS')!.freeUnits,
          LOCAL_STORAGE: rates.find((r) => r.dimension === 'LOCAL_STORAGE')!.freeUnits,
        },
        rates: rates.map((r) => ({
          dimension: r.dimension,
          rate: r.rateE4 / 10_000,
          free_units: r.freeUnits,
          unit: METERING_UNITS[r.dimension],
        })),
      };
    },

    /**
     * New rates from `effectiveFrom` on (not before now: charged hours are never re-priced). Staff call this through
     * an approval, passing its transaction so the rates and the approval commit together.
     */
    async setRates(accountId: string, rates: Rate[], effectiveFrom: Date, actorUserId: string | null, tx: DbOrTx = db): Promise<void> {
      const now = clock.now();
      if (effectiveFrom.getTime() < now.getTime() - 60_000) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      for (const rate of rates) {
        if (!Number.isSafeInteger(rate.rateE4) || rate.rateE4 < 0 || rate.rateE4 >= 1_000_000 || rate.freeUnits < 0) {
          throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
        }
      }
      await repository.insertRates(accountId, rates, effectiveFrom, actorUserId, now, tx);
    },
  };
}
export type MeteringRates = ReturnType<typeof createMeteringRates>;

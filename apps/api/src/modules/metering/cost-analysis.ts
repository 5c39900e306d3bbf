import {
  COMPUTE_DIMENSIONS,
  CONSUMPTION_CATEGORIES,
  METERING_DIMENSIONS,
  type ConsumptionCategory,
  type MeteringDimension,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { DAY, monthOf } from '../../clock.js';
import type { MeteringRepository, Scope, Sums } from './metering.repository.js';
import { FREE_UNIT_SIZE, type Rate } from './rate-card.js';

/** The UTC day of a moment, as the rollups key it (YYYY-MM-DD). */
export const dayText = (at: Date) => at.toISOString().slice(0, 10);

function emptyConsumption(): Record<ConsumptionCategory, number> {
  return Object.fromEntries(CONSUMPTION_CATEGORIES.map((c) => [c, 0])) as Record<ConsumptionCategory, number>;
}
const isCompute = (d: MeteringDimension) => COMPUTE_DIMENSIONS.includes(d);

/** Cents per consumption category (the dimensions, and the free units used at what they would have cost). */
export type CategoryCents = Record<ConsumptionCategory, number>;

/** A month of costs of a subscription or a cluster, in cents, with the usage behind them and the 12 months to it. */
export interface CostAnalysisValues {
  month: { from: Date; to: Date };
  /** Every day of the month up to today (or the month's end), oldest first. */
  days: { day: string; totalCents: number; categoryCents: CategoryCents; computeCents: number; storageCents: number }[];
  /** The month's total per category. */
  categoryCents: CategoryCents;
  totalCents: number;
  computeCents: number;
  storageCents: number;
  clusters: { id: string; name: string; status: string; statusUpdatedAt: Date; totalCents: number; categoryCents: CategoryCents }[];
  /**
   * Quantities per day in each dimension's unit, with the free units the whole account used of its monthly allowance up
   * to that day (build in hours of the build node, as the allowance is given; cache storage in GB-month).
   */
  usage: { day: string; quantities: Record<MeteringDimension, number>; freeBuildUpTo: number; freeCacheStorageUpTo: number }[];
  /** The 12 months ending with the chosen one (each by its first day), oldest first. */
  lastTwelveMonths: { month: string; consumedCents: number }[];
}

/** The cost analysis screen: a month of costs of one subscription (all its clusters) or of one cluster, from the rollups. */
export function createCostAnalysis(deps: {
  repository: Pick<MeteringRepository, 'dailySums' | 'clusterSums' | 'monthlyCents' | 'clustersOf' | 'accountFreeUsedByDay'>;
  ratesAt: (accountId: string, at: Date) => Promise<Rate[]>;
  clock: Clock;
}) {
  const { repository, ratesAt, clock } = deps;

  return async function analysis(accountId: string, scope: Scope, startDate: string | undefined): Promise<CostAnalysisValues> {
    const now = clock.now();
    const month = monthOf(startDate, now);
    const yearFrom = new Date(Date.UTC(month.from.getUTCFullYear(), month.from.getUTCMonth() - 11, 1));
    const [rows, clusterSums, monthly, clusterRows, rates, accountFree] = await Promise.all([
      repository.dailySums(scope, dayText(month.from), dayText(month.to)),
      repository.clusterSums(scope, dayText(month.from)),
      repository.monthlyCents(scope, dayText(yearFrom), dayText(month.to)),
      repository.clustersOf(accountId, scope),
      ratesAt(accountId, now),
      repository.accountFreeUsedByDay(accountId, dayText(month.from), dayText(month.to)),
    ]);

    const lastDay = new Date(Math.min(month.to.getTime(), Math.max(month.from.getTime() + DAY, now.getTime() + 1)) - 1);
    const days: string[] = [];
    for (let d = month.from.getTime(); d <= lastDay.getTime(); d += DAY) days.push(dayText(new Date(d)));

    const group = <T extends Sums>(list: T[], key: (r: T) => string) => {
      const groups = new Map<string, T[]>();
      for (const r of list) {
        const members = groups.get(key(r));
        if (members) members.push(r);
        else groups.set(key(r), [r]);
      }
      return groups;
    };
    const dayGroups = group(rows, (r) => r.day);
    const clusterGroups = group(clusterSums, (r) => r.clusterId);
    const byDay = (day: string) => dayGroups.get(day) ?? [];
    const categories = (list: Sums[]) => {
      const cents = emptyConsumption();
      for (const r of list) cents[r.dimension] += r.amountCents;
      return cents;
    };
    const sum = (list: Sums[], pick: (r: Sums) => boolean = () => true) => list.filter(pick).reduce((s, r) => s + r.amountCents, 0);
    let freeBuild = 0;
    let freeCache = 0;
    const freeBuildSize = FREE_UNIT_SIZE.DATA_PROCESS;

    const daily = days.map((day) => {
      const list = byDay(day);
      const cents = categories(list);
      return {
        day,
        totalCents: sum(list),
        categoryCents: cents,
        computeCents: sum(list, (r) => isCompute(r.dimension)),
        storageCents: sum(list, (r) => !isCompute(r.dimension)),
      };
    });
    const consumption = days.map((day) => {
      const list = byDay(day);
      const usage = Object.fromEntries(METERING_DIMENSIONS.map((d) => [d, 0])) as Record<MeteringDimension, number>;
      for (const r of list) usage[r.dimension] += r.quantity;
      // The allowance is the account's: each subscription's screen shows how much of it is used, as staff's rate card gives it.
      for (const r of accountFree.filter((f) => f.day === day)) {
        if (r.dimension === 'DATA_PROCESS') freeBuild += r.freeQuantity / freeBuildSize;
        if (r.dimension === 'LOCAL_STORAGE') freeCache += r.freeQuantity;
      }
      for (const d of METERING_DIMENSIONS) usage[d] = Math.round(usage[d] * 10_000) / 10_000;
      return {
        day,
        quantities: usage,
        freeBuildUpTo: Math.round(freeBuild * 100) / 100,
        freeCacheStorageUpTo: Math.round(freeCache * 100) / 100,
      };
    });
    // Free units used show as their own categories (at what they would have cost), not in the totals.
    const totalCents = categories(rows);
    const freeBuildRate = rates.find((r) => r.dimension === 'DATA_PROCESS')!.rateE4;
    const freeCacheRate = rates.find((r) => r.dimension === 'LOCAL_STORAGE')!.rateE4;
    const freeQty = (d: MeteringDimension) => rows.filter((r) => r.dimension === d).reduce((s, r) => s + r.freeQuantity, 0);
    totalCents.DATA_PROCESS_FREE = Math.round((freeQty('DATA_PROCESS') * freeBuildRate) / 100);
    totalCents.LOCAL_STORAGE_FREE = Math.round((freeQty('LOCAL_STORAGE') * freeCacheRate) / 100);

    const perCluster = clusterRows
      .map((c) => {
        const list = clusterGroups.get(c.id) ?? [];
        return { cluster: c, list, cents: sum(list) };
      })
      .filter(
        (entry) =>
          entry.list.length > 0 || (!entry.cluster.deleted && scope.clusterId === undefined) || scope.clusterId === entry.cluster.id,
      );

    const months: { month: string; consumedCents: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const key = dayText(new Date(Date.UTC(yearFrom.getUTCFullYear(), yearFrom.getUTCMonth() + i, 1)));
      months.push({ month: key, consumedCents: monthly.get(key) ?? 0 });
    }

    return {
      month,
      days: daily,
      categoryCents: totalCents,
      totalCents: sum(rows),
      computeCents: sum(rows, (r) => isCompute(r.dimension)),
      storageCents: sum(rows, (r) => !isCompute(r.dimension)),
      clusters: perCluster.map(({ cluster, list, cents }) => ({
        id: cluster.id,
        name: cluster.name,
        status: cluster.status,
        statusUpdatedAt: cluster.statusUpdatedAt,
        totalCents: cents,
        categoryCents: categories(list),
      })),
      usage: consumption,
      lastTwelveMonths: months,
    };
  };
}
export type CostAnalysis = ReturnType<typeof createCostAnalysis>;

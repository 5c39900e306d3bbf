import {
  COMPUTE_DIMENSIONS,
  CONSUMPTION_CATEGORIES,
  METERING_DIMENSIONS,
  centsToAmount,
  type ConsumptionCategory,
  type CreditAnalysis,
  type MeteringDimension,
  type ServiceConsumption,
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
function asDollars(cents: Record<ConsumptionCategory, number>): ServiceConsumption {
  return Object.fromEntries(Object.entries(cents).map(([k, v]) => [k, centsToAmount(v)])) as ServiceConsumption;
}
const isCompute = (d: MeteringDimension) => COMPUTE_DIMENSIONS.includes(d);

/** The cost analysis screen: a month of costs of one subscription (all its clusters) or of one cluster, from the rollups. */
export function createCostAnalysis(deps: {
  repository: Pick<MeteringRepository, 'dailySums' | 'clusterSums' | 'monthlyCents' | 'clustersOf'>;
  ratesAt: (accountId: string, at: Date) => Promise<Rate[]>;
  clock: Clock;
}) {
  const { repository: repo, ratesAt, clock } = deps;

  return async function analysis(accountId: string, scope: Scope, startDate: string | undefined): Promise<CreditAnalysis> {
    const now = clock.now();
    const month = monthOf(startDate, now);
    const yearFrom = new Date(Date.UTC(month.from.getUTCFullYear(), month.from.getUTCMonth() - 11, 1));
    const [rows, clusterSums, monthly, clusterRows, rates] = await Promise.all([
      repo.dailySums(scope, dayText(month.from), dayText(month.to)),
      repo.clusterSums(scope, dayText(month.from)),
      repo.monthlyCents(scope, dayText(yearFrom), dayText(month.to)),
      repo.clustersOf(accountId, scope),
      ratesAt(accountId, now),
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
        date: day,
        daily_total: centsToAmount(sum(list)),
        service_consumption: asDollars(cents),
        compute_total: centsToAmount(sum(list, (r) => isCompute(r.dimension))),
        storage_total: centsToAmount(sum(list, (r) => !isCompute(r.dimension))),
      };
    });
    const consumption = days.map((day) => {
      const list = byDay(day);
      const usage = Object.fromEntries(METERING_DIMENSIONS.map((d) => [d, 0])) as Record<MeteringDimension, number>;
      for (const r of list) {
        usage[r.dimension] += r.quantity;
        if (r.dimension === 'DATA_PROCESS') freeBuild += r.freeQuantity / freeBuildSize;
        if (r.dimension === 'LOCAL_STORAGE') freeCache += r.freeQuantity;
      }
      for (const d of METERING_DIMENSIONS) usage[d] = Math.round(usage[d] * 10_000) / 10_000;
      return {
        date: day,
        usage,
        free_build_up_to: Math.round(freeBuild * 100) / 100,
        free_cache_storage_up_to: Math.round(freeCache * 100) / 100,
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

    const months: { date: string; monthly_consumed_amount: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const key = dayText(new Date(Date.UTC(yearFrom.getUTCFullYear(), yearFrom.getUTCMonth() + i, 1)));
      months.push({ date: key, monthly_consumed_amount: centsToAmount(monthly.get(key) ?? 0) });
    }

    return {
      start_date: month.from.toISOString(),
      end_date: month.to.toISOString(),
      daily,
      total_service_consumption: asDollars(totalCents),
      total: centsToAmount(sum(rows)),
      compute_total: centsToAmount(sum(rows, (r) => isCompute(r.dimension))),
      storage_total: centsToAmount(sum(rows, (r) => !isCompute(r.dimension))),
      clusters: perCluster.map(({ cluster, list, cents }) => ({
        deployment_id: cluster.id,
        cluster_name: cluster.name,
        total: centsToAmount(cents),
        service_consumption: asDollars(categories(list)),
      })),
      total_cluster_consumption: perCluster.map(({ cluster, cents }) => ({
        deployment_id: cluster.id,
        cluster_name: cluster.name,
        consumption: centsToAmount(cents),
        cluster_status: cluster.status,
        status_update_date: cluster.statusUpdatedAt.toISOString(),
      })),
      consumption,
      last_12_months: months,
    };
  };
}
export type CostAnalysis = ReturnType<typeof createCostAnalysis>;

/** How metering's values are shown on the wire: dollars, ISO dates and the specification's field names. */
import {
  METERING_UNITS,
  centsToAmount,
  type ConsumptionExportRow,
  type ClusterConsumptionOverview,
  type CreditAnalysis,
  type ClusterSize,
  type HourlyRatePreview,
  type PricePreview,
  type ResizePreview,
  type ServiceConsumption,
  type SubscriptionConsumptionOverview,
} from '@kumo/contract';
import type { UsageExportRow } from './consumption-export.js';
import type { CategoryCents, CostAnalysisValues } from './cost-analysis.js';
import type { ClusterCost, HourlyCostPreview, SubscriptionCost } from './cost-overview.js';

/** A row of the cost overview (GET /api/subscription/consumption/overview). */
export function toSubscriptionCostWire(cost: SubscriptionCost): SubscriptionConsumptionOverview {
  return {
    subscription_id: cost.subscriptionId,
    subscription_name: cost.subscriptionName,
    consumed_amount: centsToAmount(cost.consumedCents),
    forecasted_amount: centsToAmount(cost.forecastCents),
    balance: centsToAmount(cost.balanceCents),
    paid_funds: centsToAmount(cost.paidFundsCents),
    free_credits: centsToAmount(cost.freeCreditsCents),
    hourly_rate: centsToAmount(cost.hourlyCents),
    runway_hours: cost.runwayHours,
    start_date: cost.month.from.toISOString(),
    end_date: cost.month.to.toISOString(),
  };
}

/** A cluster's month (GET /api/cluster/consumption/overview/{deploymentId}). */
export function toClusterCostWire(cost: ClusterCost): ClusterConsumptionOverview {
  return {
    deployment_id: cost.clusterId,
    cluster_name: cost.clusterName,
    subscription_id: cost.subscriptionId,
    consumed_amount: centsToAmount(cost.consumedCents),
    forecasted_amount: centsToAmount(cost.forecastCents),
    hourly_rate: centsToAmount(cost.hourlyCents),
    start_date: cost.month.from.toISOString(),
    end_date: cost.month.to.toISOString(),
  };
}

/** The cost preview (GET /api/cluster/consumption/hourly-rate). */
export function toHourlyRatePreviewWire(preview: HourlyCostPreview): HourlyRatePreview {
  return {
    hourly_rate: centsToAmount(preview.hourlyCents),
    stopped_hourly_rate: centsToAmount(preview.stoppedHourlyCents),
    balance: centsToAmount(preview.balanceCents),
    covers_hours: preview.coversHours,
    time_scale: preview.timeScale,
  };
}

/** The create form's price of a shape (GET /api/cluster/price-preview). */
export function toPricePreviewWire(preview: { hourlyCents: number; monthlyCents: number; runwayDays: number | null }): PricePreview {
  return {
    hourly_cost: centsToAmount(preview.hourlyCents),
    monthly_cost_estimate: centsToAmount(preview.monthlyCents),
    runway_days: preview.runwayDays,
  };
}

type ShapeCost = { size: ClusterSize; queryEngines: number; hourlyCents: number };
const shapeCostWire = (shape: ShapeCost) => ({
  size: shape.size,
  query_engines: shape.queryEngines,
  hourly_cost: centsToAmount(shape.hourlyCents),
});

/** The Resize dialog's before and after (GET /api/cluster/resize-preview/{deploymentId}). */
export function toResizePreviewWire(preview: {
  current: ShapeCost;
  proposed: ShapeCost;
  runwayDaysCurrent: number | null;
  runwayDaysProposed: number | null;
}): ResizePreview {
  return {
    current: shapeCostWire(preview.current),
    proposed: shapeCostWire(preview.proposed),
    runway_days_current: preview.runwayDaysCurrent,
    runway_days_proposed: preview.runwayDaysProposed,
  };
}

const asDollars = (cents: CategoryCents): ServiceConsumption =>
  Object.fromEntries(Object.entries(cents).map(([category, value]) => [category, centsToAmount(value)])) as ServiceConsumption;

/** A month's cost analysis of a subscription or a cluster (GET …/consumption/credit-analysis/{id}). */
export function toCreditAnalysisWire(analysis: CostAnalysisValues): CreditAnalysis {
  return {
    start_date: analysis.month.from.toISOString(),
    end_date: analysis.month.to.toISOString(),
    daily: analysis.days.map((day) => ({
      date: day.day,
      daily_total: centsToAmount(day.totalCents),
      service_consumption: asDollars(day.categoryCents),
      compute_total: centsToAmount(day.computeCents),
      storage_total: centsToAmount(day.storageCents),
    })),
    total_service_consumption: asDollars(analysis.categoryCents),
    total: centsToAmount(analysis.totalCents),
    compute_total: centsToAmount(analysis.computeCents),
    storage_total: centsToAmount(analysis.storageCents),
    clusters: analysis.clusters.map((cluster) => ({
      deployment_id: cluster.id,
      cluster_name: cluster.name,
      total: centsToAmount(cluster.totalCents),
      service_consumption: asDollars(cluster.categoryCents),
    })),
    total_cluster_consumption: analysis.clusters.map((cluster) => ({
      deployment_id: cluster.id,
      cluster_name: cluster.name,
      consumption: centsToAmount(cluster.totalCents),
      cluster_status: cluster.status,
      status_update_date: cluster.statusUpdatedAt.toISOString(),
    })),
    consumption: analysis.usage.map((day) => ({
      date: day.day,
      usage: day.quantities,
      free_build_up_to: day.freeBuildUpTo,
      free_cache_storage_up_to: day.freeCacheStorageUpTo,
    })),
    last_12_months: analysis.lastTwelveMonths.map((month) => ({
      date: month.month,
      monthly_consumed_amount: centsToAmount(month.consumedCents),
    })),
  };
}

/** One consumption export row on the wire: dollars from cents, quantities from millionths, the rate per unit. */
export function toConsumptionExportRowWire(row: UsageExportRow): ConsumptionExportRow {
  return {
    period_start: row.periodStart.toISOString(),
    cluster_id: row.clusterId,
    cluster_name: row.clusterName,
    dimension: row.dimension,
    quantity: row.quantityMicros / 1e6,
    unit: METERING_UNITS[row.dimension],
    rate: row.rateE4 / 1e4,
    free_units_applied: row.freeMicros / 1e6,
    amount: centsToAmount(row.amountCents),
    paid_from: row.paidFrom,
  };
}

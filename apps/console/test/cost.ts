import {
  CONSUMPTION_CATEGORIES,
  METERING_DIMENSIONS,
  type CreditAnalysis,
  type DailyCost,
  type DailyUsage,
  type ServiceConsumption,
  type SubscriptionConsumptionOverview,
} from '@kumo/contract';

const cents = (value: number) => Math.round(value * 100) / 100;

/** Every consumption category, zero unless given. */
export function serviceConsumption(amounts: Partial<ServiceConsumption> = {}): ServiceConsumption {
  return Object.fromEntries(CONSUMPTION_CATEGORIES.map((category) => [category, amounts[category] ?? 0])) as ServiceConsumption;
}

/** A day of cost whose totals follow from its services (BI server and query engines compute, persistent storage storage). */
export function dailyCost(date: string, amounts: Partial<ServiceConsumption> = {}): DailyCost {
  const services = serviceConsumption(amounts);
  const compute = cents(services.BI_SERVER + services.QUERY_ENGINES + services.DATA_PROCESS + services.PERIPHERAL_SERVICES);
  const storage = cents(services.LOCAL_STORAGE + services.PERSISTENT_STORAGE + services.BACKUP_STORAGE + services.BACKUP_DATA_TRANSFER);
  return { date, service_consumption: services, compute_total: compute, storage_total: storage, daily_total: cents(compute + storage) };
}

export function dailyUsage(date: string, usage: Partial<DailyUsage['usage']> = {}, free: Partial<DailyUsage> = {}): DailyUsage {
  return {
    date,
    usage: Object.fromEntries(METERING_DIMENSIONS.map((dimension) => [dimension, usage[dimension] ?? 0])) as DailyUsage['usage'],
    free_build_up_to: free.free_build_up_to ?? 0,
    free_cache_storage_up_to: free.free_cache_storage_up_to ?? 0,
  };
}

/** A month's analysis built from its days; totals are the sums of the days. */
export function creditAnalysis(month: string, daily: DailyCost[], consumption: DailyUsage[] = [], last12: number[] = []): CreditAnalysis {
  const total = (pick: (day: DailyCost) => number) => cents(daily.reduce((sum, day) => sum + pick(day), 0));
  const totals = serviceConsumption(
    Object.fromEntries(CONSUMPTION_CATEGORIES.map((category) => [category, total((day) => day.service_consumption[category])])),
  );
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  return {
    start_date: `${month}-01T00:00:00.000Z`,
    end_date: new Date(Date.UTC(year, monthNumber, 1)).toISOString(),
    daily,
    total_service_consumption: totals,
    total: total((day) => day.daily_total),
    compute_total: total((day) => day.compute_total),
    storage_total: total((day) => day.storage_total),
    clusters: [],
    total_cluster_consumption: [],
    consumption,
    last_12_months: last12.map((amount, index) => ({
      date: new Date(Date.UTC(year, monthNumber - 1 - (last12.length - 1 - index), 1)).toISOString().slice(0, 10),
      monthly_consumed_amount: amount,
    })),
  };
}

export function consumptionOverview(overrides: Partial<SubscriptionConsumptionOverview> = {}): SubscriptionConsumptionOverview {
  return {
    subscription_id: '3f2c1b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
    subscription_name: 'Analytics',
    consumed_amount: 0,
    forecasted_amount: 0,
    balance: 1734,
    paid_funds: 1234,
    free_credits: 500,
    hourly_rate: 0,
    runway_hours: null,
    start_date: '2026-11-01T00:00:00.000Z',
    end_date: '2026-12-01T00:00:00.000Z',
    ...overrides,
  };
}

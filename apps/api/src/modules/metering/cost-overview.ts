import { CLUSTER_MESSAGES } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Tx } from '../../db/client.js';
import { HOUR, monthOf } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { dayText, type CostAnalysis, type CostAnalysisValues } from './cost-analysis.js';
import type { MeteringRepository } from './metering.repository.js';
import type { MeteringRates } from './metering-rates.js';
import { clusterHourCents } from './rate-card.js';

/** A subscription's month of cost, as the cost overview, the outlook, the report and staff read it. */
export interface SubscriptionCost {
  subscriptionId: string;
  subscriptionName: string;
  consumedCents: number;
  forecastCents: number;
  balanceCents: number;
  paidFundsCents: number;
  freeCreditsCents: number;
  /** What its clusters cost per billable hour now. */
  hourlyCents: number;
  /** Hours the balance lasts at that rate, to a tenth; null when nothing is charged or the balance is gone. */
  runwayHours: number | null;
  month: { from: Date; to: Date };
}

/** A cluster's month of cost (its own overview). */
export interface ClusterCost {
  clusterId: string;
  clusterName: string;
  subscriptionId: string;
  consumedCents: number;
  forecastCents: number;
  hourlyCents: number;
  month: { from: Date; to: Date };
}

/** A subscription's spend this UTC month: what is charged so far, its forecast and what it costs per billable hour now. */
export interface MonthSpend {
  consumedCents: number;
  forecastCents: number;
  hourlyCents: number;
  /** The running query engines' part of `hourlyCents`: charged when their hour has ended, so the last ones are still owed. */
  engineHourlyCents: number;
}

/** The cost preview of a new cluster: its hourly cost, the subscription's balance and the whole hours it covers. */
export interface HourlyCostPreview {
  hourlyCents: number;
  /** The same cluster stopped: its storage. */
  stoppedHourlyCents: number;
  balanceCents: number;
  coversHours: number;
  /** How many times faster than real time the cloud's billable hours pass (1 with AWS). */
  timeScale: number;
}

/**
 * The cost reads of a subscription or a cluster: a month's consumption with its forecast and the runway, the cost
 * analysis of one the account owns, and the cost preview of a new cluster.
 */
export function createCostOverview(deps: {
  repository: Pick<MeteringRepository, 'subscriptionCents' | 'monthlyCents' | 'clustersOf'>;
  subscriptions: Pick<SubscriptionsService, 'balances' | 'requireOwned'>;
  rates: Pick<MeteringRates, 'ratesAt' | 'hourCentsOf'>;
  analysis: CostAnalysis;
  clock: Clock;
  /** Real milliseconds one billable hour lasts: only to say how much faster than real time the cloud runs. */
  hourMs: number;
}) {
  const { repository, subscriptions, analysis, clock } = deps;
  const { ratesAt, hourCentsOf } = deps.rates;

  /**
   * The one forecast of a month's cost (docs/metering.md): what is charged so far plus what is running now, at its
   * current rate per billable hour, for every hour left in the month, in billing time (an hour of the month is one
   * billable hour however fast the simulated cloud runs). A past month forecasts its actual total.
   */
  function forecast(consumedCents: number, hourCents: number, month: { from: Date; to: Date }): number {
    const now = clock.now();
    if (now >= month.to) return consumedCents;
    const remainingHours = Math.max(0, (month.to.getTime() - Math.max(now.getTime(), month.from.getTime())) / HOUR);
    return consumedCents + Math.round(hourCents * remainingHours);
  }

  async function requireCluster(accountId: string, clusterId: string) {
    const [cluster] = await repository.clustersOf(accountId, { clusterId });
    // Another account's cluster is as unknown as one that never existed.
    if (!cluster) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.clusterNotFound);
    return cluster;
  }

  /** The month's charges so far and the current hourly rate of each subscription, and its forecast from the two. */
  async function monthCosts(accountId: string, subscriptionIds: string[], month: { from: Date; to: Date }, tx?: Tx) {
    const [consumedCents, hourCents] = await Promise.all([
      repository.subscriptionCents(subscriptionIds, dayText(month.from), dayText(month.to), tx),
      hourCentsOf(accountId, {}, tx),
    ]);
    return (subscriptionId: string) => {
      const consumed = consumedCents.get(subscriptionId) ?? 0;
      const hourly = hourCents(subscriptionId);
      return { consumed, hourly, engines: hourCents.queryEngines(subscriptionId), forecast: forecast(consumed, hourly, month) };
    };
  }

  return {
    async subscriptionOverview(accountId: string, startDate?: string): Promise<SubscriptionCost[]> {
      const month = monthOf(startDate, clock.now());
      const list = await subscriptions.balances(accountId);
      const costOf = await monthCosts(
        accountId,
        list.map((s) => s.id),
        month,
      );
      return list.map((s) => {
        const { consumed, hourly, forecast } = costOf(s.id);
        const balance = s.balanceCents;
        return {
          subscriptionId: s.id,
          subscriptionName: s.name,
          consumedCents: consumed,
          forecastCents: forecast,
          balanceCents: balance,
          paidFundsCents: balance - s.freeCreditsCents,
          freeCreditsCents: s.freeCreditsCents,
          hourlyCents: hourly,
          runwayHours: hourly > 0 && balance > 0 ? Math.round((balance / hourly) * 10) / 10 : null,
          month,
        };
      });
    },

    /**
     * This UTC month's charges so far, the forecast the cost overview shows and the current hourly rate of each
     * subscription, in cents; read in `tx` when given (the hard cap's check, in the transaction of a start or a create).
     */
    async monthSpend(accountId: string, subscriptionIds: string[], tx?: Tx): Promise<Map<string, MonthSpend>> {
      const costOf = await monthCosts(accountId, subscriptionIds, monthOf(undefined, clock.now()), tx);
      return new Map(
        subscriptionIds.map((id) => {
          const { consumed, hourly, engines, forecast } = costOf(id);
          return [id, { consumedCents: consumed, forecastCents: forecast, hourlyCents: hourly, engineHourlyCents: engines }];
        }),
      );
    },

    async subscriptionAnalysis(accountId: string, subscriptionId: string, startDate?: string): Promise<CostAnalysisValues> {
      await subscriptions.requireOwned(accountId, subscriptionId);
      return analysis(accountId, { subscriptionId }, startDate);
    },

    async clusterAnalysis(accountId: string, clusterId: string, startDate?: string): Promise<CostAnalysisValues> {
      const cluster = await requireCluster(accountId, clusterId);
      return analysis(accountId, { subscriptionId: cluster.subscriptionId, clusterId: cluster.id }, startDate);
    },

    async clusterOverview(accountId: string, clusterId: string, startDate?: string): Promise<ClusterCost> {
      const cluster = await requireCluster(accountId, clusterId);
      const month = monthOf(startDate, clock.now());
      const scope = { subscriptionId: cluster.subscriptionId, clusterId: cluster.id };
      const [monthly, hourCents] = await Promise.all([
        repository.monthlyCents(scope, dayText(month.from), dayText(month.to)),
        hourCentsOf(accountId, { clusterId }),
      ]);
      const consumed = monthly.get(dayText(month.from)) ?? 0;
      const hourly = hourCents(cluster.subscriptionId);
      return {
        clusterId: cluster.id,
        clusterName: cluster.name,
        subscriptionId: cluster.subscriptionId,
        consumedCents: consumed,
        forecastCents: forecast(consumed, hourly, month),
        hourlyCents: hourly,
        month,
      };
    },

    /**
     * The cost preview: what one running cluster costs per billable hour at the account's rates, and how many such
     * hours the balance covers; read in `tx` when given.
     */
    async hourlyRatePreview(
      accountId: string,
      subscriptionId: string,
      dr: boolean,
      queryEngineCores?: number,
      state: 'running' | 'stopped' = 'running',
      tx?: Tx,
    ): Promise<HourlyCostPreview> {
      const subscription = await subscriptions.requireOwned(accountId, subscriptionId, tx);
      const rates = await ratesAt(accountId, clock.now(), tx);
      const hourCents = clusterHourCents(rates, state, dr, queryEngineCores);
      const balance = subscription.balanceCents;
      return {
        hourlyCents: hourCents,
        stoppedHourlyCents: clusterHourCents(rates, 'stopped', dr, queryEngineCores),
        balanceCents: balance,
        coversHours: hourCents > 0 ? Math.max(0, Math.floor(balance / hourCents)) : 0,
        timeScale: Math.round((HOUR / deps.hourMs) * 100) / 100,
      };
    },
  };
}
export type CostOverview = ReturnType<typeof createCostOverview>;

import {
  CLUSTER_MESSAGES,
  amountToCents,
  centsToAmount,
  type ClusterConsumptionOverview,
  type CreditAnalysis,
  type HourlyRatePreview,
  type SubscriptionConsumptionOverview,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { HOUR, monthOf } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { dayText, type CostAnalysis } from './cost-analysis.js';
import type { MeteringRepository } from './metering.repository.js';
import { REAL_HOUR_MS, type MeteringRates } from './metering-rates.js';
import { clusterHourCents } from './rate-card.js';

/**
 * The cost reads of a subscription or a cluster: a month's consumption with its forecast and the runway, the cost
 * analysis of one the account owns, and the cost preview of a new cluster.
 */
export function createCostOverview(deps: {
  repository: Pick<MeteringRepository, 'subscriptionCents' | 'monthlyCents' | 'clustersOf'>;
  subscriptions: Pick<SubscriptionsService, 'list' | 'requireOwned' | 'details'>;
  rates: Pick<MeteringRates, 'ratesAt' | 'realHourCentsOf'>;
  analysis: CostAnalysis;
  clock: Clock;
  /** Real milliseconds one billable hour lasts. */
  hourMs: number;
}) {
  const { repository: repo, subscriptions, analysis, clock } = deps;
  const { ratesAt, realHourCentsOf } = deps.rates;

  function forecast(consumedCents: number, realHourCents: number, month: { from: Date; to: Date }): number {
    const now = clock.now();
    if (now >= month.to) return consumedCents;
    const remainingHours = Math.max(0, (month.to.getTime() - Math.max(now.getTime(), month.from.getTime())) / HOUR);
    return consumedCents + Math.round(realHourCents * remainingHours);
  }

  async function requireCluster(accountId: string, clusterId: string) {
    const [cluster] = await repo.clustersOf(accountId, { clusterId });
    // Another account's cluster is as unknown as one that never existed.
    if (!cluster) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.clusterNotFound);
    return cluster;
  }

  return {
    async subscriptionOverview(accountId: string, startDate?: string): Promise<SubscriptionConsumptionOverview[]> {
      const month = monthOf(startDate, clock.now());
      const list = await subscriptions.list(accountId);
      const [consumedCents, hourCents] = await Promise.all([
        repo.subscriptionCents(
          list.map((s) => s.subscription_id),
          dayText(month.from),
          dayText(month.to),
        ),
        realHourCentsOf(accountId, {}),
      ]);
      return list.map((s) => {
        const consumed = consumedCents.get(s.subscription_id) ?? 0;
        const hourly = hourCents(s.subscription_id);
        const balance = amountToCents(s.balance);
        const credits = amountToCents(s.credits);
        return {
          subscription_id: s.subscription_id,
          subscription_name: s.subscription_name,
          consumed_amount: centsToAmount(consumed),
          forecasted_amount: centsToAmount(forecast(consumed, hourly, month)),
          balance: s.balance,
          paid_funds: centsToAmount(balance - credits),
          free_credits: s.credits,
          hourly_rate: centsToAmount(hourly),
          runway_hours: hourly > 0 && balance > 0 ? Math.round((balance / hourly) * 10) / 10 : null,
          start_date: month.from.toISOString(),
          end_date: month.to.toISOString(),
        };
      });
    },

    async subscriptionAnalysis(accountId: string, subscriptionId: string, startDate?: string): Promise<CreditAnalysis> {
      await subscriptions.requireOwned(accountId, subscriptionId);
      return analysis(accountId, { subscriptionId }, startDate);
    },

    async clusterAnalysis(accountId: string, clusterId: string, startDate?: string): Promise<CreditAnalysis> {
      const cluster = await requireCluster(accountId, clusterId);
      return analysis(accountId, { subscriptionId: cluster.subscriptionId, clusterId: cluster.id }, startDate);
    },

    async clusterOverview(accountId: string, clusterId: string, startDate?: string): Promise<ClusterConsumptionOverview> {
      const cluster = await requireCluster(accountId, clusterId);
      const month = monthOf(startDate, clock.now());
      const scope = { subscriptionId: cluster.subscriptionId, clusterId: cluster.id };
      const [monthly, hourCents] = await Promise.all([
        repo.monthlyCents(scope, dayText(month.from), dayText(month.to)),
        realHourCentsOf(accountId, { clusterId }),
      ]);
      const consumed = monthly.get(dayText(month.from)) ?? 0;
      const hourly = hourCents(cluster.subscriptionId);
      return {
        deployment_id: cluster.id,
        cluster_name: cluster.name,
        subscription_id: cluster.subscriptionId,
        consumed_amount: centsToAmount(consumed),
        forecasted_amount: centsToAmount(forecast(consumed, hourly, month)),
        hourly_rate: centsToAmount(hourly),
        start_date: month.from.toISOString(),
        end_date: month.to.toISOString(),
      };
    },

    /** The cost preview: what one running cluster costs per real hour at the account's rates, and how long the balance lasts. */
    async hourlyRatePreview(accountId: string, subscriptionId: string, dr: boolean): Promise<HourlyRatePreview> {
      const subscription = await subscriptions.details(accountId, subscriptionId);
      const rates = await ratesAt(accountId, clock.now());
      const realHourCents = Math.round((clusterHourCents(rates, 'running', dr) * REAL_HOUR_MS) / deps.hourMs);
      const balance = amountToCents(subscription.balance);
      return {
        hourly_rate: centsToAmount(realHourCents),
        balance: subscription.balance,
        covers_hours: realHourCents > 0 ? Math.max(0, Math.floor(balance / realHourCents)) : 0,
      };
    },
  };
}
export type CostOverview = ReturnType<typeof createCostOverview>;

/**
 * What a shape of query engines costs before anyone chooses it: the create form's price and runway, and the Resize
 * dialog's hourly cost and runway before and after. At the account's rates in force now, free units ignored (the
 * cost preview's worst case), in billable hours.
 */
import { CLUSTER_MESSAGES, HOURS_PER_BILLING_MONTH, queryEngineCores, type ClusterSize } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import type { MeteringRates } from './metering-rates.js';
import type { MeteringRepository } from './metering.repository.js';
import { clusterHourCents } from './rate-card.js';

export interface Shape {
  size: ClusterSize;
  queryEngines: number;
}

/** Days a balance lasts at an hourly cost, to a tenth; 0 once it is spent, null when nothing is spent. */
export function runwayDays(balanceCents: number, hourlyCents: number): number | null {
  if (hourlyCents <= 0) return null;
  if (balanceCents <= 0) return 0;
  return Math.round((balanceCents / hourlyCents / 24) * 10) / 10;
}

export function createShapePreviews(deps: {
  repository: Pick<MeteringRepository, 'clusterShape'>;
  rates: Pick<MeteringRates, 'ratesAt' | 'hourCentsOf'>;
  subscriptions: Pick<SubscriptionsService, 'requireOwned'>;
  clock: Clock;
}) {
  const { repository, subscriptions, clock } = deps;
  const { ratesAt, hourCentsOf } = deps.rates;

  const runningCents = async (accountId: string, shape: Shape, hasBackup: boolean) =>
    clusterHourCents(await ratesAt(accountId, clock.now()), 'running', hasBackup, queryEngineCores(shape.size, shape.queryEngines));

  return {
    /** A new cluster of this shape (without a backup region) beside the subscription's clusters as they run now. */
    async pricePreview(accountId: string, subscriptionId: string, shape: Shape) {
      const subscription = await subscriptions.requireOwned(accountId, subscriptionId);
      const hourlyCents = await runningCents(accountId, shape, false);
      const others = (await hourCentsOf(accountId, {}))(subscriptionId);
      return {
        hourlyCents,
        monthlyCents: hourlyCents * HOURS_PER_BILLING_MONTH,
        runwayDays: runwayDays(subscription.balanceCents, others + hourlyCents),
      };
    },

    /**
     * The cluster at its shape and at the proposed one, each while it runs, and the subscription's runway with the
     * cluster running at either (its other clusters as they are now).
     */
    async resizePreview(accountId: string, clusterId: string, proposed: Shape) {
      const cluster = await repository.clusterShape(accountId, clusterId);
      if (!cluster) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.clusterNotFound);
      const current: Shape = { size: cluster.size as ClusterSize, queryEngines: cluster.queryEngines };
      const [subscription, currentCents, proposedCents, inSubscription, alone] = await Promise.all([
        subscriptions.requireOwned(accountId, cluster.subscriptionId),
        runningCents(accountId, current, cluster.hasBackup),
        runningCents(accountId, proposed, cluster.hasBackup),
        hourCentsOf(accountId, {}),
        hourCentsOf(accountId, { clusterId }),
      ]);
      const others = inSubscription(cluster.subscriptionId) - alone(cluster.subscriptionId);
      return {
        current: { ...current, hourlyCents: currentCents },
        proposed: { ...proposed, hourlyCents: proposedCents },
        runwayDaysCurrent: runwayDays(subscription.balanceCents, others + currentCents),
        runwayDaysProposed: runwayDays(subscription.balanceCents, others + proposedCents),
      };
    },
  };
}
export type ShapePreviews = ReturnType<typeof createShapePreviews>;

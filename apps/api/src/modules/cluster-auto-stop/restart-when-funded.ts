/**
 * Restart when funded: a cluster the overdue guard stopped starts again once its subscription's balance is back above
 * the minimum (a top-up, an automatic top-up, a staff credit), and one a budget's hard cap stopped once the budget is
 * raised or the month turns, when its owner asked for it. The start is a person's start made by the system: the same
 * minimum balance and start gates, so the sweep simply tries each such cluster and a refusal means "not yet". A cluster
 * a person stopped, or started since, has no open stop here and is never started.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { ClustersService, LockedCluster } from '../clusters/index.js';
import type { NoticesService } from '../notices/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import type { AutoStopRepository, RestartCandidate } from './cluster-auto-stop.repository.js';
import type { SystemStopCause } from './cluster-auto-stop.schema.js';

/** Why the cluster may start again, as its audit log and the owner's bell say it. */
export function restartDescription(cause: SystemStopCause, subscriptionName: string): string {
  return cause === 'OVERDUE'
    ? `Started again on its own: the balance of ${subscriptionName} is back above the minimum, and restart when funded is on.`
    : `Started again on its own: the budget of ${subscriptionName} allows it again (raised, or a new month), and restart when funded is on.`;
}

export function createRestartWhenFunded(deps: {
  repository: AutoStopRepository;
  clusters: Pick<ClustersService, 'startBySystem'>;
  subscriptions: Pick<SubscriptionsService, 'requireOwned'>;
  notices: Pick<NoticesService, 'write'>;
  clock: Clock;
  logger?: FastifyBaseLogger;
}) {
  const { repository, clusters, subscriptions, notices, clock } = deps;

  /** Under the cluster's lock, once the balance and the gates allow the start: the stop is claimed and the owner told. */
  const decide =
    (candidate: RestartCandidate) =>
    async (cluster: LockedCluster, tx: Tx): Promise<string | undefined> => {
      const settings = await repository.settings(cluster.id, tx);
      if (!settings?.restartWhenFunded) return undefined;
      // The claim makes the restart once, even with a second process waiting on the same lock.
      if (!(await repository.claimRestart(candidate.stopId, clock.now(), tx))) return undefined;
      const subscription = await subscriptions.requireOwned(cluster.accountId, cluster.subscriptionId, tx);
      const description = restartDescription(candidate.cause, subscription.name);
      await notices.write(
        {
          accountId: cluster.accountId,
          kind: 'CLUSTER_RESTARTED',
          title: `${cluster.name} was started again`,
          body: description,
          link: `/clusters/${cluster.subscriptionId}/${cluster.id}`,
          key: `auto-restart:${candidate.stopId}`,
        },
        tx,
      );
      return description;
    };

  return {
    /** Every minute: each open overdue or hard-cap stop whose cluster asked for it is started if it now may. */
    async sweep(): Promise<number> {
      let started = 0;
      for (const candidate of await repository.restartCandidates()) {
        try {
          const result = await clusters.startBySystem(candidate.accountId, candidate.clusterId, decide(candidate));
          if (result.started) started += 1;
        } catch (error) {
          // A subscription that is gone funds nothing again: its clusters stay stopped, and the stop is closed.
          if (error instanceof AppError && error.statusCode === 404) {
            await repository.endOpen(candidate.clusterId, clock.now());
            continue;
          }
          deps.logger?.warn({ err: error, clusterId: candidate.clusterId }, 'restart when funded failed for one cluster');
        }
      }
      return started;
    },
  };
}

/**
 * The auto-stop module's public face: the service (idle auto-stop, restart when funded), its routes, its jobs and the
 * recorder services.ts puts on the stops the overdue guard and the budgets' hard cap make.
 */
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { createAutoStopRepository } from './cluster-auto-stop.repository.js';
import type { SystemStopCause } from './cluster-auto-stop.schema.js';
import { createAutoStopService as createService, type AutoStopService } from './cluster-auto-stop.service.js';
import { AUTO_STOP_JOBS } from './idle-stopper.js';

export type { AutoStopService } from './cluster-auto-stop.service.js';
export { autoStopRoutes } from './cluster-auto-stop.routes.js';
export { AUTO_STOP_JOBS } from './idle-stopper.js';

export function createAutoStopService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  return createService({ ...deps, repository: createAutoStopRepository(deps.db) });
}

/** The clusters' stop for a rule of another module: the overdue guard's and the budgets' hard cap's. */
type StopForRule = (
  accountId: string,
  subscriptionId: string,
  reason: string,
  onStopped?: (clusterId: string, tx: Tx) => Promise<void>,
) => Promise<string[]>;

/**
 * Wraps the clusters' stop so each cluster it stops is recorded with its cause, in the stop's transaction: what
 * restart when funded starts again. The overdue guard and the budgets get the wrapped stop and know nothing of it.
 */
export function recordingSystemStops(db: Database, clock: Clock) {
  const repository = createAutoStopRepository(db);
  return (stop: StopForRule, cause: Exclude<SystemStopCause, 'IDLE'>) => (accountId: string, subscriptionId: string, reason: string) =>
    stop(accountId, subscriptionId, reason, (clusterId, tx) =>
      repository.recordStop({ clusterId, accountId, cause, reason, stoppedAt: clock.now() }, tx).then(() => undefined),
    );
}

/** The minute sweep (idle stops, then restarts) and the check queued for the moment one cluster falls idle. */
export function autoStopJobs(autoStop: AutoStopService): JobDefinition[] {
  return [
    { queue: AUTO_STOP_JOBS.sweep, retryLimit: 0, retryDelaySeconds: 60, schedule: '* * * * *', handler: async () => autoStop.sweep() },
    {
      queue: AUTO_STOP_JOBS.check,
      retryLimit: 2,
      retryDelaySeconds: 5,
      handler: async (data) => {
        await autoStop.checkIdle(String(data.accountId), String(data.clusterId));
      },
    },
  ];
}

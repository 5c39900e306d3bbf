/** The metering module's public face: the service (charging, rates, cost queries), its routes and its job. */
import type { Database } from '../../db/client.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { createMeteringRepository } from './metering.repository.js';
import { METERING_QUEUE, createMeteringService as createService } from './metering.service.js';
import { createBalanceOutlook } from './runway.js';

export { METERING_QUEUE, REAL_HOUR_MS } from './metering.service.js';
export type { Rate } from './rate-card.js';
export { DEFAULT_RATES, clusterHourCents } from './rate-card.js';
export { meteringRoutes } from './metering.routes.js';
export type { ClusterChargeDay } from './metering.repository.js';
export type { AfterCharge } from './charging-run.js';
export type { MonthSpend } from './cost-overview.js';

export function createMeteringService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  const service = createService({ ...deps, repository: createMeteringRepository(deps.db) });
  // The outlook reads the service's overview and rates, so it joins the service once that exists.
  return Object.assign(service, { outlook: createBalanceOutlook({ ...deps, metering: service }) });
}
export type MeteringService = ReturnType<typeof createMeteringService>;

/** How often the charging run comes (the schedule below): what starts between two runs is charged by the later one. */
export const METERING_RUN_INTERVAL_MS = 60_000;

/**
 * How late a run may come on a busy machine (pg-boss polls its schedule; a run waits for a worker): what the hard cap
 * allows for beside the interval, so a late run does not charge hours it was meant to prevent.
 */
export const METERING_RUN_LATENESS_MS = METERING_RUN_INTERVAL_MS / 2;

/**
 * The query engines' hours run but not yet charged, at most: the hour running and the one that has ended but not yet
 * settled (charging-sql.ts charges an hour of them once it has ended and the late-write margin, or the hour, has passed).
 */
export const QUERY_ENGINE_HOURS_UNCHARGED = 2;

/** Every minute: new billable hours charged through the ledger, then the overdue guard and the notices. */
export function meteringJobs(metering: MeteringService): JobDefinition[] {
  return [
    {
      queue: METERING_QUEUE,
      retryLimit: 0,
      retryDelaySeconds: 60,
      schedule: '* * * * *',
      handler: async () => {
        await metering.run();
      },
    },
  ];
}

/** The clusters module's public face: the service, its routes, its jobs and the read model of its clusters' usage. */
import type { Database } from '../../db/client.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { createClustersRepository } from './clusters.repository.js';
import { CLUSTER_JOBS, createClustersService as createService, type ClustersService } from './clusters.service.js';

export type { AuditedEntry } from './cluster-records.js';
export type { Caller, ClustersService } from './clusters.service.js';
export type { TimelineEvent, TimelinePage } from './history.js';
export type { DeployingCluster, StartGate, StartingCluster } from './power.js';
export type { SqlActivitySource, SqlTarget } from './sql-access.js';
export { sqlRefusalError } from './sql-access.js';
export type { LockedCluster, SystemDecision, SystemStartResult } from './system-power.js';
export { CLUSTER_JOBS } from './clusters.service.js';
export { clustersRoutes } from './clusters.routes.js';
export { clusterDirectory, clusterUsageChanges, type ClusterUsage } from './usage-read-model.js';

export function createClustersService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  return createService({ ...deps, repository: createClustersRepository(deps.db) });
}

/** Following busy clusters (durable: a restart resumes them) and the minute sweep that also runs the schedules. */
export function clusterJobs(clusters: ClustersService): JobDefinition[] {
  return [
    {
      queue: CLUSTER_JOBS.follow,
      retryLimit: 5,
      retryDelaySeconds: 5,
      handler: async (data) => clusters.followJob(String(data.deploymentId)),
    },
    { queue: CLUSTER_JOBS.sweep, retryLimit: 0, retryDelaySeconds: 60, schedule: '* * * * *', handler: async () => clusters.sweep() },
  ];
}

/** The cluster SQL module's public face: its service, its routes, its job, and the view of activity it publishes. */
import type { Database } from '../../db/client.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { CLUSTER_SQL_JOBS } from './activity-pull.js';
import { createClusterSqlRepository } from './cluster-sql.repository.js';
import { createClusterSqlService as createService, type ClusterSqlService } from './cluster-sql.service.js';

export type { ClusterSqlService } from './cluster-sql.service.js';
export type { ClusterQueryRow } from './cluster-sql.repository.js';
export { clusterSqlRoutes } from './cluster-sql.routes.js';
export { clusterQueryActivity } from './cluster-sql.views.js';

export function createClusterSqlService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  return createService({ ...deps, repository: createClusterSqlRepository(deps.db) });
}

/** The minute read of the AWS clusters' endpoint activity; none on a cloud whose endpoints record straight away. */
export function clusterSqlJobs(clusterSql: ClusterSqlService): JobDefinition[] {
  if (!clusterSql.pullsActivity) return [];
  return [
    {
      queue: CLUSTER_SQL_JOBS.pullActivity,
      retryLimit: 0,
      retryDelaySeconds: 60,
      schedule: '* * * * *',
      handler: async () => {
        await clusterSql.pullActivity();
      },
    },
  ];
}

/** The cluster SQL module's public face: its service, its routes, and the view of activity it publishes. */
import type { Database } from '../../db/client.js';
import { createClusterSqlRepository } from './cluster-sql.repository.js';
import { createClusterSqlService as createService } from './cluster-sql.service.js';

export type { ClusterSqlService } from './cluster-sql.service.js';
export type { ClusterQueryRow } from './cluster-sql.repository.js';
export { clusterSqlRoutes } from './cluster-sql.routes.js';
export { clusterQueryActivity } from './cluster-sql.views.js';

export function createClusterSqlService(deps: Omit<Parameters<typeof createService>[0], 'repository'> & { db: Database }) {
  return createService({ ...deps, repository: createClusterSqlRepository(deps.db) });
}

/**
 * Queries sent straight to a cluster on AWS never pass through the portal: every minute the portal reads what reached
 * each online cluster's endpoint since its cursor and records it in the history (source ENDPOINT), which is what
 * auto-stop counts as activity and shows as what kept a cluster awake. Safe with several portal processes: a record is
 * kept once by the endpoint's id, and a cursor moves only from where a pull found it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { PORTAL_SQL_USER, type ClusterSqlPort, type EndpointQueryRecord } from '../../adapters/cloud/index.js';
import type { Clock } from '../../clock.js';
import type { DbOrTx } from '../../db/client.js';
import type { ClustersService, SqlActivitySource } from '../clusters/index.js';
import type { ClusterSqlRepository } from './cluster-sql.repository.js';

export const CLUSTER_SQL_JOBS = { pullActivity: 'cluster-sql.pull-activity' } as const;

/** Pages one pull reads of one cluster at most: a busy cluster's backlog is read over the next minutes. */
const MAX_PAGES = 20;

export function createActivityPull(deps: {
  repository: Pick<ClusterSqlRepository, 'activityCursor' | 'advanceActivityCursor' | 'markActivityRead' | 'activityReadAt'>;
  clusters: Pick<ClustersService, 'sqlActivitySources'>;
  sql: ClusterSqlPort | undefined;
  record: (entry: EndpointQueryRecord) => Promise<void>;
  clock: Clock;
  logger?: FastifyBaseLogger;
}) {
  const { repository, clock } = deps;
  const read = deps.sql?.activity?.bind(deps.sql);

  /**
   * Reads one cluster's endpoint on from its cursor; returns how many records were read (kept once each). Once read
   * to the end, notes when that read began: everything that reached the endpoint before then is in the history.
   */
  async function pullCluster(activity: NonNullable<typeof read>, source: SqlActivitySource): Promise<number> {
    let cursor = await repository.activityCursor(source.clusterId);
    let count = 0;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const askedAt = clock.now();
      const answer = await activity(source.stackName, source.credential, cursor, source.region);
      for (const entry of answer.records) {
        // The portal's own queries are in the history already, as the console's, in the person's name.
        if (entry.userLabel === PORTAL_SQL_USER) continue;
        await deps.record({ ...entry, deploymentId: source.clusterId });
        count += 1;
      }
      const movesOn = answer.cursor !== null && answer.cursor !== cursor;
      if (movesOn) {
        // Another process moved the cursor first: it reads on from there.
        if (!(await repository.advanceActivityCursor(source.clusterId, cursor, answer.cursor!))) break;
        cursor = answer.cursor;
      }
      if (!answer.more) {
        await repository.markActivityRead(source.clusterId, askedAt);
        break;
      }
      // More, yet no way on from here: the next minute asks again.
      if (!movesOn) break;
    }
    return count;
  }

  return {
    /** Whether the cloud's endpoints keep an activity record to read (AWS); the simulated one records directly. */
    pulls: read !== undefined,

    /**
     * Whether everything that reached the cluster's endpoint before `at` is in the history: always where the endpoint
     * records straight into it, else once a read begun at or after `at` went to the end.
     */
    async knownUntil(clusterId: string, at: Date, tx?: DbOrTx): Promise<boolean> {
      if (!read) return true;
      const readAt = await repository.activityReadAt(clusterId, tx);
      return readAt !== undefined && readAt.getTime() >= at.getTime();
    },

    /** Reads every online cluster's endpoint activity; one cluster out of reach does not hold up the others. */
    async pull(): Promise<number> {
      if (!read) return 0;
      let count = 0;
      for (const source of await deps.clusters.sqlActivitySources()) {
        try {
          count += await pullCluster(read, source);
        } catch (error) {
          deps.logger?.warn({ err: error, clusterId: source.clusterId }, "could not read a cluster's SQL endpoint activity");
        }
      }
      return count;
    },
  };
}

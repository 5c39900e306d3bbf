/**
 * A cluster's SQL in the portal: the console's queries, run with the portal's own credential for the cluster in the
 * person's name, and the history of every query and refused attempt, through the console or the endpoint.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { CLUSTER_SQL_LIMITS, CLUSTER_SQL_MESSAGES } from '@kumo/contract';
import {
  SqlRefusal,
  type ClusterSqlPort,
  type EndpointQueryRecord,
  type SqlAnswer,
  type SqlEndpointHooks,
} from '../../adapters/cloud/index.js';
import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import { sqlRefusalError, type Caller, type ClustersService } from '../clusters/index.js';
import { createActivityPull } from './activity-pull.js';
import type { ClusterQueryInsert, ClusterQueryRow, ClusterSqlRepository } from './cluster-sql.repository.js';

/** Where a console query came from, for the history. */
export interface QueryClient {
  address: string | null;
  userAgent: string | null;
}

export interface QueryPage {
  rows: ClusterQueryRow[];
  totalPages: number;
}

/** A cloud without SQL endpoints has nothing to run a console query on. */
const noSqlEndpoint = () => new AppError(503, 'SQL_ENDPOINT_UNAVAILABLE', CLUSTER_SQL_MESSAGES.engineUnavailable);

const historyText = (query: string) => query.slice(0, CLUSTER_SQL_LIMITS.historyQueryChars);

export function createClusterSqlService(deps: {
  repository: ClusterSqlRepository;
  clusters: Pick<ClustersService, 'sqlTarget' | 'sqlHistoryCluster' | 'sqlActivitySources'>;
  /** The cloud's SQL endpoints; absent when the cloud has none. */
  sql: ClusterSqlPort | undefined;
  clock: Clock;
  /** Whether the cluster's network access list lets an address in. */
  allowsAddress: (clusterId: string, address: string) => Promise<boolean>;
  logger?: FastifyBaseLogger;
}) {
  const { repository, clusters, clock } = deps;

  async function recordEndpointQuery(entry: EndpointQueryRecord) {
    const accountId = await repository.accountOfCluster(entry.deploymentId);
    if (!accountId) return;
    await repository.insert({
      clusterId: entry.deploymentId,
      accountId,
      startedAt: entry.startedAt,
      durationMs: entry.durationMs,
      rowCount: entry.rowCount,
      status: entry.status,
      source: 'ENDPOINT',
      userId: null,
      userLabel: entry.userLabel,
      clientAddress: entry.clientAddress,
      userAgent: entry.userAgent,
      query: historyText(entry.query),
      error: entry.error,
      endpointRecordId: entry.recordId ?? null,
    });
  }
  const activity = createActivityPull({ repository, clusters, sql: deps.sql, record: recordEndpointQuery, clock, logger: deps.logger });

  return {
    /** Runs a console query: the first 1,000 rows, and the engine's answer or refusal recorded in the history. */
    async query(caller: Caller, deploymentId: string, query: string, client: QueryClient): Promise<SqlAnswer> {
      if (!deps.sql) throw noSqlEndpoint();
      const sql = deps.sql;
      const target = await clusters.sqlTarget(caller, deploymentId);
      const startedAt = clock.now();
      const started = performance.now();
      const record = (row: Pick<ClusterQueryInsert, 'status' | 'rowCount' | 'error'>) =>
        repository.insert({
          clusterId: target.clusterId,
          accountId: target.accountId,
          startedAt,
          durationMs: Math.round(performance.now() - started),
          source: 'CONSOLE',
          userId: caller.userId,
          userLabel: target.userLabel,
          clientAddress: client.address,
          userAgent: client.userAgent,
          query: historyText(query),
          ...row,
        });
      try {
        if (Buffer.byteLength(query, 'utf8') > CLUSTER_SQL_LIMITS.maxQueryBytes) {
          throw new SqlRefusal(413, 'QUERY_TOO_LARGE', CLUSTER_SQL_MESSAGES.queryTooLarge);
        }
        const answer = await sql.query(
          target.stackName,
          target.credential,
          { query, maxRows: CLUSTER_SQL_LIMITS.defaultMaxRows },
          target.region,
        );
        await record({ status: 'OK', rowCount: answer.rowCount, error: null });
        return answer;
      } catch (error) {
        if (!(error instanceof SqlRefusal)) throw error;
        await record({ status: error.statusCode === 409 ? 'REFUSED' : 'FAILED', rowCount: null, error: error.message });
        throw sqlRefusalError(error);
      }
    },

    /** The cluster's history, newest first. */
    async history(caller: Caller, deploymentId: string, page: number, size: number): Promise<QueryPage> {
      const { clusterId } = await clusters.sqlHistoryCluster(caller, deploymentId);
      const { rows, total } = await repository.page(clusterId, page, size);
      return { rows, totalPages: Math.ceil(total / size) };
    },

    /** What the cloud's endpoints ask of the portal: the access list, and the history of what reached them. */
    endpointHooks: {
      allowsAddress: (clusterId, address) => deps.allowsAddress(clusterId, address),
      record: recordEndpointQuery,
    } satisfies SqlEndpointHooks,

    /** Whether the cloud's endpoints keep an activity record the portal reads (AWS). */
    pullsActivity: activity.pulls,
    /** Records what reached the online clusters' endpoints since the last read (the minute job). */
    pullActivity: activity.pull,
    /** Whether the history holds everything that reached a cluster's endpoint before a moment (auto-stop asks). */
    endpointActivityKnownUntil: activity.knownUntil,
  };
}
export type ClusterSqlService = ReturnType<typeof createClusterSqlService>;

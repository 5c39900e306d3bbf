/**
 * What the clusters module holds of a cluster's SQL: the portal's own credential for its endpoint (random, sealed
 * like the password under the cluster-passwords key, kept, never shown), the endpoint's address, and the reset of the
 * customer's password, which the cloud keeps (the portal never does).
 */
import { randomBytes } from 'node:crypto';
import { CLUSTER_MESSAGES, CLUSTER_SQL_MESSAGES, CLUSTER_SQL_USER, canClusterDo, type ClusterStatus } from '@kumo/contract';
import { PORTAL_SQL_USER, SqlRefusal, type CloudProvisioner, type SqlCredential } from '../../adapters/cloud/index.js';
import { AppError, conflict } from '../../errors.js';
import { emailOf, type Caller, type ClusterRecords } from './cluster-records.js';
import type { ClusterRow, ClustersRepository } from './clusters.repository.js';
import type { Sealer } from '../../lib/crypto.js';

export const newPortalSqlCredential = () => randomBytes(24).toString('base64url');

/** What the cluster SQL module needs to run a console query on a cluster. */
export interface SqlTarget {
  clusterId: string;
  accountId: string;
  stackName: string;
  region: string;
  credential: SqlCredential;
  /** Who runs the query, as the history names them (an API token by its name too). */
  userLabel: string;
}

/** An online cluster whose endpoint's activity the portal reads, with the portal's credential for it. */
export interface SqlActivitySource {
  clusterId: string;
  stackName: string;
  region: string;
  credential: SqlCredential;
}

/** The cloud's refusal in the contract's error shape. */
export const sqlRefusalError = (error: SqlRefusal) => new AppError(error.statusCode, error.code, error.message);

export function createClusterSqlAccess(deps: {
  repository: ClustersRepository;
  records: Pick<ClusterRecords, 'requireCluster' | 'actorOf' | 'audit'>;
  cloud: CloudProvisioner;
  passwordSealer: Sealer;
}) {
  const { repository, cloud, passwordSealer } = deps;
  const { requireCluster, actorOf, audit } = deps.records;

  function port() {
    if (!cloud.sql) throw new AppError(503, 'SQL_ENDPOINT_UNAVAILABLE', CLUSTER_SQL_MESSAGES.engineUnavailable);
    return cloud.sql;
  }

  /** The portal's credential for the cluster; one made now, and given to the cloud, for a cluster from before there was one. */
  async function portalCredential(cluster: ClusterRow): Promise<SqlCredential> {
    if (cluster.sealedSqlCredential) return { user: PORTAL_SQL_USER, password: passwordSealer.open(cluster.sealedSqlCredential) };
    const credential = { user: PORTAL_SQL_USER, password: newPortalSqlCredential() };
    await port().setPassword(cluster.stackName, credential, credential, cluster.region);
    await repository.update(cluster.id, { sealedSqlCredential: passwordSealer.seal(credential.password) });
    return credential;
  }

  const refusalsAsErrors = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw error instanceof SqlRefusal ? sqlRefusalError(error) : error;
    }
  };

  return {
    /** The cluster's SQL endpoint address, for its details; null where the cloud has none (yet). */
    sqlEndpointOf: (cluster: Pick<ClusterRow, 'stackName' | 'portalUrl'>) =>
      cloud.sql?.endpointFor(cluster.stackName, cluster.portalUrl) ?? null,

    /** The cluster a console query goes to, with the portal's credential: ONLINE clusters of the caller's account only. */
    async sqlTarget(caller: Caller, id: string): Promise<SqlTarget> {
      const { cluster } = await requireCluster(caller, id);
      port();
      if (cluster.status !== 'ONLINE') throw conflict('CLUSTER_NOT_ONLINE', CLUSTER_SQL_MESSAGES.notOnline);
      return {
        clusterId: cluster.id,
        accountId: cluster.accountId,
        stackName: cluster.stackName,
        region: cluster.region,
        credential: await refusalsAsErrors(() => portalCredential(cluster)),
        userLabel: emailOf(await actorOf(caller)),
      };
    },

    /** The online clusters whose endpoint activity the portal reads (queries sent straight to them), with its credential. */
    async sqlActivitySources(): Promise<SqlActivitySource[]> {
      return (await repository.onlineWithSqlCredential()).map((row) => ({
        clusterId: row.id,
        stackName: row.stackName,
        region: row.region,
        credential: { user: PORTAL_SQL_USER, password: passwordSealer.open(row.sealed!) },
      }));
    },

    /** The cluster whose query history the caller reads: one of the caller's account, deleted or not. */
    async sqlHistoryCluster(caller: Caller, id: string): Promise<{ clusterId: string }> {
      const { cluster } = await requireCluster(caller, id, { includeDeleted: true });
      return { clusterId: cluster.id };
    },

    /** Sets a new password for the cluster's SQL user (the create form's rules were checked by the route's schema). */
    async resetSqlPassword(caller: Caller, id: string, password: string): Promise<{ deploymentId: string }> {
      const { cluster } = await requireCluster(caller, id);
      const sql = port();
      if (!cluster.stackId || !canClusterDo('resetPassword', cluster.status as ClusterStatus)) {
        throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.resetPasswordNotAllowed);
      }
      await refusalsAsErrors(async () =>
        sql.setPassword(cluster.stackName, { user: CLUSTER_SQL_USER, password }, await portalCredential(cluster), cluster.region),
      );
      const actor = await actorOf(caller);
      await audit(
        cluster.id,
        'CLUSTER_PASSWORD_RESET',
        `The password of ${cluster.name}'s SQL user was changed by ${emailOf(actor)}.`,
        actor,
      );
      return { deploymentId: cluster.id };
    },
  };
}

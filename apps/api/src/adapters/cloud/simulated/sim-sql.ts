/**
 * The simulated cloud's side of the SQL endpoint contract: who may query (the users' slow hashes), whether the
 * cluster is online, and the query run by its engine. The HTTP endpoint (sim-sql.routes.ts) and the portal's own
 * console queries both come through here, so both meet the same refusals.
 */
import { eq } from 'drizzle-orm';
import { CLUSTER_SQL_LIMITS, CLUSTER_SQL_MESSAGES, CLUSTER_SQL_USER, MESSAGES } from '@kumo/contract';
import type { Database } from '../../../db/client.js';
import { PORTAL_SQL_USER, SqlRefusal, type ClusterSqlPort } from '../sql-port.js';
import type { ClusterDescription } from '../cloud-provisioner.js';
import { engineLayoutOf } from '../template/node-layout.js';
import { simCloudStacks } from './sim-cloud.schema.js';
import { hashSqlPassword, sqlPasswordMatches } from './sim-sql-credentials.js';
import type { SimSqlEngines } from './sim-sql-engine.js';

export const isOnline = (description: ClusterDescription) =>
  description.powerState === 'RUNNING' && description.deploymentStatus === 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE';

export function createSimSql(deps: {
  db: Database;
  engines: SimSqlEngines;
  describe: (stackName: string) => Promise<ClusterDescription>;
  endpointFor: (stackName: string) => string;
}): ClusterSqlPort {
  const { db, engines } = deps;
  const column = (user: string) =>
    user === CLUSTER_SQL_USER ? ('sqlPasswordHash' as const) : user === PORTAL_SQL_USER ? ('sqlPortalHash' as const) : undefined;

  return {
    endpointFor: (stackName) => deps.endpointFor(stackName),

    async query(stackName, credential, query) {
      const [row] = await db.select().from(simCloudStacks).where(eq(simCloudStacks.stackName, stackName)).limit(1);
      if (!row || row.deleteRequestedAt) throw new SqlRefusal(404, 'NOT_FOUND', MESSAGES.notFound);
      const stored = column(credential.user);
      if (!stored || !(await sqlPasswordMatches(credential.password, row[stored]))) {
        throw new SqlRefusal(401, 'CREDENTIALS_INVALID', CLUSTER_SQL_MESSAGES.credentialsInvalid);
      }
      if (!isOnline(await deps.describe(stackName))) throw new SqlRefusal(409, 'CLUSTER_NOT_ONLINE', CLUSTER_SQL_MESSAGES.notOnline);
      if (Buffer.byteLength(query.query, 'utf8') > CLUSTER_SQL_LIMITS.maxQueryBytes) {
        throw new SqlRefusal(413, 'QUERY_TOO_LARGE', CLUSTER_SQL_MESSAGES.queryTooLarge);
      }
      return engines.run(stackName, query, engineLayoutOf(row.engineType, row.engineCount).cores * row.engineCount);
    },

    async setPassword(stackName, user) {
      const stored = column(user.user);
      if (!stored) throw new SqlRefusal(400, 'VALIDATION_FAILED', CLUSTER_SQL_MESSAGES.credentialsInvalid);
      await db
        .update(simCloudStacks)
        .set({ [stored]: await hashSqlPassword(user.password) })
        .where(eq(simCloudStacks.stackName, stackName));
    },
  };
}

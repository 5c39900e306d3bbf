import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CLUSTER_SQL_LIMITS,
  clusterQueriesQuerySchema,
  clusterQueriesResponseSchema,
  clusterQueryRequestSchema,
  deploymentIdParamsSchema,
  sqlResultSchema,
} from '@kumo/contract';
import { toSqlWire } from '../../adapters/cloud/index.js';
import { requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf as callerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import { routeDeclarations } from '../../http/route.js';
import type { ClusterSqlService } from './cluster-sql.service.js';
import { toQueryPageWire } from './presentation.js';

const reads = errorResponses(400, 401, 403, 404);
const queries = errorResponses(400, 401, 403, 404, 409, 413, 503);

export function clusterSqlRoutes(service: ClusterSqlService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const customer = routeDeclarations('Cluster SQL').behind(requireAccountAdmin(verify));

    // A POST, so a READ token and a staff member's read-only view are refused it: a query may change the data.
    app.post('/api/cluster/query/:deploymentId', {
      // Room for a query a little over the limit, so it is refused with the contract's 413 rather than the body limit.
      bodyLimit: 4 * CLUSTER_SQL_LIMITS.maxQueryBytes,
      ...customer({
        summary: "Run a query on the cluster's engine, as the portal's console does: the first 1,000 rows",
        params: deploymentIdParamsSchema,
        body: clusterQueryRequestSchema,
        response: { 200: sqlResultSchema, ...queries },
      }),
      handler: async (request) => {
        const client = { address: request.ip ?? null, userAgent: request.headers['user-agent']?.slice(0, 300) ?? null };
        return toSqlWire(await service.query(callerOf(request), request.params.deploymentId, request.body.query, client));
      },
    });

    app.get('/api/cluster/queries/:deploymentId', {
      ...customer({
        summary: "The cluster's queries, newest first: through the console or the endpoint, and every refused attempt",
        params: deploymentIdParamsSchema,
        querystring: clusterQueriesQuerySchema,
        response: { 200: clusterQueriesResponseSchema, ...reads },
      }),
      handler: async (request) =>
        toQueryPageWire(await service.history(callerOf(request), request.params.deploymentId, request.query.page, request.query.size)),
    });
  };
}

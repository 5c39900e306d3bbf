/** The sizes a cluster can have and resizing one, registered with the other clusters routes under the same guard. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CLUSTER_SIZES,
  CLUSTER_SIZE_MESSAGES,
  clusterSizesResponseSchema,
  deploymentIdParamsSchema,
  resizeRequestSchema,
  resizeResponseSchema,
} from '@kumo/contract';
import { requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf as callerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import { idempotent } from '../../http/idempotency.js';
import { routeDeclarations } from '../../http/route.js';
import type { ClustersService } from './clusters.service.js';

const reads = errorResponses(401, 403);
const writes = errorResponses(400, 401, 403, 404, 409, 422);

export async function registerResizeRoutes(fastify: FastifyInstance, clusters: ClustersService, verify: TokenVerifier) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const customer = routeDeclarations('Clusters').behind(requireAccountAdmin(verify));

  app.get('/api/cluster/sizes', {
    ...customer({
      summary: "The sizes of a cluster's query engines, smallest first, each with its instance type, cores and memory",
      response: { 200: clusterSizesResponseSchema, ...reads },
    }),
    handler: async () => CLUSTER_SIZES.map((size) => ({ ...size })),
  });

  app.post('/api/cluster/resize/:deploymentId', {
    ...customer({
      summary:
        "Change the size of a cluster's query engines and how many run: an online cluster stays online while engines are added or replaced one at a time; an offline one takes the shape at its next start",
      params: deploymentIdParamsSchema,
      body: resizeRequestSchema,
      response: { 200: resizeResponseSchema, ...writes },
    }),
    config: idempotent,
    handler: async (request) => {
      const outcome = await clusters.resize(callerOf(request), request.params.deploymentId, {
        size: request.body.size,
        queryEngines: request.body.query_engines,
      });
      return {
        deployment_id: outcome.deploymentId,
        status: outcome.status,
        size: outcome.shape.size,
        query_engines: outcome.shape.queryEngines,
        resizing: outcome.resizing,
        message: outcome.resizing ? CLUSTER_SIZE_MESSAGES.resizeStarted : CLUSTER_SIZE_MESSAGES.resizeSaved,
      };
    },
  });
}

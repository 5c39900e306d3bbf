import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deploymentIdParamsSchema, timelineQuerySchema, timelineResponseSchema } from '@kumo/contract';
import { requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import { routeDeclarations } from '../../http/route.js';
import type { ClusterTimeline } from './cluster-timeline.js';

export function clusterTimelineRoutes(timeline: ClusterTimeline, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const customer = routeDeclarations('Clusters').behind(requireAccountAdmin(verify));

    app.get('/api/cluster/timeline/:deploymentId', {
      ...customer({
        summary: "The cluster's lifecycle events, deployment steps and daily charges by UTC day, newest first, 14 days a page",
        params: deploymentIdParamsSchema,
        querystring: timelineQuerySchema,
        response: { 200: timelineResponseSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => timeline(accountCallerOf(request), request.params.deploymentId, request.query.before),
    });
  };
}

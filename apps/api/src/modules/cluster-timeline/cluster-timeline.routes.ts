import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deploymentIdParamsSchema, timelineQuerySchema, timelineResponseSchema } from '@kumo/contract';
import { claimsOf, requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { errorResponses } from '../../http/error-responses.js';
import type { ClusterTimeline } from './cluster-timeline.js';

export function clusterTimelineRoutes(timeline: ClusterTimeline, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get('/api/cluster/timeline/:deploymentId', {
      onRequest: requireAccountAdmin(verify),
      schema: {
        tags: ['Clusters'],
        security: [{ bearerAuth: [] }],
        summary: "The cluster's lifecycle events, deployment steps and daily charges by UTC day, newest first, 14 days a page",
        params: deploymentIdParamsSchema,
        querystring: timelineQuerySchema,
        response: { 200: timelineResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
      handler: async (request) => {
        // The guard has made sure the caller works in an account.
        const claims = claimsOf(request);
        const caller = { accountId: claims.accountId!, userId: claims.userId, actingUserId: claims.actingUserId };
        return timeline(caller, request.params.deploymentId, request.query.before);
      },
    });
  };
}

/** The network access list's routes, registered with the other clusters routes under the same guard. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  clientAddressResponseSchema,
  deploymentIdParamsSchema,
  networkAccessResponseSchema,
  networkAccessSchema,
  normalizeIpAddress,
} from '@kumo/contract';
import { requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf as callerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import { routeDeclarations } from '../../http/route.js';
import type { ClustersService } from './clusters.service.js';

const reads = errorResponses(400, 401, 403, 404);
const writes = errorResponses(400, 401, 403, 404, 409, 422);

export async function registerNetworkAccessRoutes(fastify: FastifyInstance, clusters: ClustersService, verify: TokenVerifier) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const customer = routeDeclarations('Clusters').behind(requireAccountAdmin(verify));

  app.get('/api/cluster/network-access/:deploymentId', {
    ...customer({
      summary: 'Who may reach the cluster: anywhere, or only the addresses and ranges listed',
      params: deploymentIdParamsSchema,
      response: { 200: networkAccessResponseSchema, ...reads },
    }),
    handler: async (request) => clusters.getNetworkAccess(callerOf(request), request.params.deploymentId),
  });

  app.put('/api/cluster/network-access/:deploymentId', {
    ...customer({
      summary:
        "Replace the cluster's network access list (at most 50 IPv4 or IPv6 addresses or CIDR ranges, kept in canonical form); its SQL endpoint, Kumo Manager and Web Portal follow it",
      params: deploymentIdParamsSchema,
      body: networkAccessSchema,
      response: { 200: networkAccessResponseSchema, ...writes },
    }),
    handler: async (request) => clusters.putNetworkAccess(callerOf(request), request.params.deploymentId, request.body),
  });

  app.get('/api/user/client-address', {
    ...customer({
      summary: "The caller's address as the portal sees it, for a cluster reachable from this address only",
      response: { 200: clientAddressResponseSchema, ...reads },
    }),
    handler: async (request) => ({ client_address: normalizeIpAddress(request.ip) ?? request.ip }),
  });
}

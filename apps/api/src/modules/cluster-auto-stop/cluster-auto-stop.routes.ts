import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { autoStopResponseSchema, deploymentIdParamsSchema, putAutoStopRequestSchema } from '@kumo/contract';
import { requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import { routeDeclarations } from '../../http/route.js';
import type { AutoStopService } from './cluster-auto-stop.service.js';
import { toAutoStopWire } from './presentation.js';

const reads = errorResponses(400, 401, 403, 404);
const writes = errorResponses(400, 401, 403, 404);

export function autoStopRoutes(autoStop: AutoStopService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    // A cluster's settings, as its schedule: the account's owner and admins (a READ token and a staff view only read).
    const customer = routeDeclarations('Clusters').behind(requireAccountAdmin(verify));

    app.get('/api/cluster/auto-stop/:deploymentId', {
      ...customer({
        summary: "The cluster's idle auto-stop: its setting, when it stops if nothing happens, what kept it awake, and what it saved",
        description:
          'wake_sources: the queries of the last 24 hours that count as activity, grouped by source, address, user and client. ' +
          'saved_this_month: the hours auto-stop kept the cluster stopped this month, priced at what running would have cost beyond storage.',
        params: deploymentIdParamsSchema,
        response: { 200: autoStopResponseSchema, ...reads },
      }),
      handler: async (request) => toAutoStopWire(await autoStop.get(accountCallerOf(request).accountId, request.params.deploymentId)),
    });

    app.put('/api/cluster/auto-stop/:deploymentId', {
      ...customer({
        summary: 'Set idle auto-stop (null: off, or 10 to 1,440 minutes) and restart when funded',
        description:
          'restart_when_funded is kept as it is when not given. With it on, a cluster the overdue guard stopped starts again once ' +
          'the balance is back above the minimum, and one a budget’s hard cap stopped once the budget allows it.',
        params: deploymentIdParamsSchema,
        body: putAutoStopRequestSchema,
        response: { 200: autoStopResponseSchema, ...writes },
      }),
      handler: async (request) =>
        toAutoStopWire(
          await autoStop.put(accountCallerOf(request).accountId, request.params.deploymentId, {
            idleMinutes: request.body.idle_minutes,
            restartWhenFunded: request.body.restart_when_funded,
          }),
        ),
    });
  };
}

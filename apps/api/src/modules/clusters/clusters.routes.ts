import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CLUSTER_MESSAGES,
  CLUSTER_SQL_MESSAGES,
  deletionOtpSentMessage,
  HEADERS,
  auditLogQuerySchema,
  auditLogResponseSchema,
  authenticateOperationRequestSchema,
  cidrQuerySchema,
  cidrResponseSchema,
  cloudProviderQuerySchema,
  clusterActionResponseSchema,
  clusterDetailsQuerySchema,
  clusterDetailsResponseSchema,
  clusterSsoQuerySchema,
  clusterSsoResponseSchema,
  clusterViewQuerySchema,
  clusterViewResponseSchema,
  createClusterRequestSchema,
  createClusterResponseSchema,
  createOperationRequestSchema,
  createOperationResponseSchema,
  deploymentIdParamsSchema,
  deploymentStatusResponseSchema,
  eaVersionResponseSchema,
  kumoVersionsResponseSchema,
  managerAccessResponseSchema,
  operationIdParamsSchema,
  operationResultSchema,
  operationStatusResponseSchema,
  putManagerAccessRequestSchema,
  putScheduleRequestSchema,
  regionMappingSchema,
  resendOperationOtpRequestSchema,
  resetClusterPasswordRequestSchema,
  resetClusterPasswordResponseSchema,
  scheduleResponseSchema,
} from '@kumo/contract';
import { changesState, personOnly, requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
// Every clusters route is in the customer area: its caller works in an account.
import { accountCallerOf as callerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import { routeDeclarations } from '../../http/route.js';
import { toAuditPageWire } from '../../lib/audit-page.js';
import type { ClustersService } from './clusters.service.js';
import { registerNetworkAccessRoutes } from './network-access.routes.js';
import { idempotent } from '../../http/idempotency.js';
import { registerResizeRoutes } from './resize.routes.js';

const reads = errorResponses(400, 401, 403, 404);
const writes = errorResponses(400, 401, 403, 404, 409, 422);

export function clustersRoutes(clusters: ClustersService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const customer = routeDeclarations('Clusters').behind(requireAccountAdmin(verify));

    app.get('/api/cluster/region-mapping', {
      ...customer({
        summary: 'Regions a cluster can be deployed in, with their backup regions',
        querystring: cloudProviderQuerySchema,
        response: { 200: regionMappingSchema, ...reads },
      }),
      handler: async () => clusters.regionMapping(),
    });

    app.get('/api/cluster/cidr', {
      ...customer({
        summary: "A free /16 for a new cluster: it overlaps none of the account's clusters in those regions",
        querystring: cidrQuerySchema,
        response: { 200: cidrResponseSchema, ...writes },
      }),
      handler: async (request) => clusters.suggestCidr(callerOf(request).accountId, request.query),
    });

    app.get('/api/cluster/check-kumo-ea-version', {
      ...customer({
        summary: 'Whether the preview release is enabled for the account',
        response: { 200: eaVersionResponseSchema, ...reads },
      }),
      handler: async (request) => clusters.eaVersionFlag(callerOf(request).accountId),
    });

    app.get('/api/cluster/kumo-versions', {
      ...customer({
        summary: 'Kumo versions offered at deployment (preview ones only with the preview release)',
        response: { 200: kumoVersionsResponseSchema, ...reads },
      }),
      handler: async (request) => clusters.versions(callerOf(request).accountId),
    });

    app.post('/api/cluster/create', {
      config: idempotent,
      ...customer({
        summary: 'Deploy a cluster (the password goes to the cloud once and is never stored)',
        body: createClusterRequestSchema,
        response: { 200: createClusterResponseSchema, ...writes },
      }),
      handler: async (request) => {
        const created = await clusters.create(callerOf(request), request.body);
        return {
          deployment_id: created.deploymentId,
          subscription_id: created.subscriptionId,
          message: CLUSTER_MESSAGES.deploymentStarted,
        };
      },
    });

    app.get('/api/cluster/view', {
      ...customer({
        summary: "The account's clusters grouped by subscription",
        querystring: clusterViewQuerySchema,
        response: { 200: clusterViewResponseSchema, ...reads },
      }),
      handler: async (request) => clusters.view(callerOf(request).accountId, request.query.subscriptionId),
    });

    app.get('/api/cluster/deployment-details/status/:deploymentId', {
      ...customer({
        summary: 'Status, capacity, stack and deployment status of a cluster',
        params: deploymentIdParamsSchema,
        response: { 200: deploymentStatusResponseSchema, ...reads },
      }),
      handler: async (request) => clusters.status(callerOf(request), request.params.deploymentId),
    });

    app.get('/api/cluster/details/:deploymentId', {
      ...customer({
        summary: 'A cluster with its configuration and nodes, as deployed (DEPLOYMENT) or now (CURRENT)',
        params: deploymentIdParamsSchema,
        querystring: clusterDetailsQuerySchema,
        response: { 200: clusterDetailsResponseSchema, ...reads },
      }),
      handler: async (request) => clusters.details(callerOf(request), request.params.deploymentId, request.query.detail),
    });

    // The specification calls start and stop with GET (section 7); POST is the same action for clients that prefer it.
    // Either way they change state: marked, so a customer view refuses the GET as well.
    for (const method of ['GET', 'POST'] as const) {
      app.route({
        method,
        url: '/api/cluster/start/:deploymentId',
        config: changesState,
        ...customer({
          summary: 'Start an offline cluster',
          params: deploymentIdParamsSchema,
          response: { 200: clusterActionResponseSchema, ...writes },
        }),
        handler: async (request) => {
          const { deploymentId, status } = await clusters.start(callerOf(request), request.params.deploymentId);
          return { deployment_id: deploymentId, status, message: CLUSTER_MESSAGES.startStarted };
        },
      });
      app.route({
        method,
        url: '/api/cluster/stop/:deploymentId',
        config: changesState,
        ...customer({
          summary: 'Stop an online cluster',
          params: deploymentIdParamsSchema,
          response: { 200: clusterActionResponseSchema, ...writes },
        }),
        handler: async (request) => {
          const { deploymentId, status } = await clusters.stop(callerOf(request), request.params.deploymentId);
          return { deployment_id: deploymentId, status, message: CLUSTER_MESSAGES.stopStarted };
        },
      });
    }

    app.post('/api/user/operation', {
      config: { ...personOnly, ...idempotent },
      ...customer({
        summary: "Ask the account owner's approval (an OTP by mail) to delete a cluster",
        body: createOperationRequestSchema,
        response: { 200: createOperationResponseSchema, ...writes, 429: reads[400] },
      }),
      handler: async (request) => {
        const { operationId, approverEmail, sentToCaller } = await clusters.requestOperation(callerOf(request), request.body);
        return {
          operation_id: operationId,
          message: deletionOtpSentMessage(approverEmail, sentToCaller),
          approver_email: approverEmail,
          sent_to_you: sentToCaller,
        };
      },
    });

    app.post('/api/user/operation/authenticate', {
      config: personOnly,
      ...customer({
        summary: "Approve an operation with the approver's OTP",
        body: authenticateOperationRequestSchema,
        response: { 200: operationResultSchema, ...writes },
      }),
      handler: async (request) => clusters.authenticateOperation(callerOf(request), request.body.operation_id, request.body.otp),
    });

    app.post('/api/user/operation/resend-otp', {
      config: personOnly,
      ...customer({
        summary: 'Send the approver a new OTP',
        body: resendOperationOtpRequestSchema,
        response: { 200: operationResultSchema, ...writes, 429: reads[400] },
      }),
      handler: async (request) => clusters.resendOperationOtp(callerOf(request), request.body.operation_id),
    });

    app.get('/api/cluster/operation/status/:operationId', {
      ...customer({
        summary: 'How an approval and its cluster stand',
        params: operationIdParamsSchema,
        response: { 200: operationStatusResponseSchema, ...reads },
      }),
      handler: async (request) => clusters.operationStatus(callerOf(request), request.params.operationId),
    });

    app.get('/api/cluster/get-audit-logs/:deploymentId', {
      ...customer({
        summary: "A month of the cluster's events, newest first, with who caused each",
        params: deploymentIdParamsSchema,
        querystring: auditLogQuerySchema,
        response: { 200: auditLogResponseSchema, ...reads },
      }),
      handler: async (request) =>
        toAuditPageWire(
          await clusters.auditLogs(
            callerOf(request),
            request.params.deploymentId,
            request.query.page,
            request.query.size,
            request.query.startDate,
          ),
        ),
    });

    app.get('/api/cluster/schedule/:deploymentId', {
      ...customer({
        summary: 'The weekly start/stop schedule of a cluster',
        params: deploymentIdParamsSchema,
        response: { 200: scheduleResponseSchema, ...reads },
      }),
      handler: async (request) => clusters.getSchedule(callerOf(request), request.params.deploymentId),
    });

    app.put('/api/cluster/schedule/:deploymentId', {
      ...customer({
        summary: "Set the weekly start/stop schedule, in the customer's time zone (userTimeZone header unless time_zone is given)",
        params: deploymentIdParamsSchema,
        body: putScheduleRequestSchema,
        response: { 200: scheduleResponseSchema, ...writes },
      }),
      handler: async (request) => {
        const header = request.headers[HEADERS.userTimeZone];
        return clusters.putSchedule(
          callerOf(request),
          request.params.deploymentId,
          request.body,
          typeof header === 'string' && header ? header : undefined,
        );
      },
    });

    app.get('/api/cluster/manager-access/:deploymentId', {
      ...customer({
        summary: "Every person of the account with their level in the cluster's Kumo Manager, and the caller's own",
        params: deploymentIdParamsSchema,
        response: { 200: managerAccessResponseSchema, ...reads },
      }),
      handler: async (request) => clusters.getManagerAccess(callerOf(request), request.params.deploymentId),
    });

    // Issues a ticket naming the caller: marked as changing state, so a staff member's read-only view of the customer's
    // console is refused it (staff open the manager with their own ticket); and a person's only, since the ticket is
    // a way in that no token's scope or allowed addresses would follow.
    app.get('/api/cluster/kumo/sso/:deploymentId', {
      config: { ...changesState, ...personOnly },
      ...customer({
        summary:
          "The cluster's Kumo Manager (or, with page=portal, Web Portal) address with a one-minute ticket naming the caller and their access level; refused to No admin access",
        params: deploymentIdParamsSchema,
        querystring: clusterSsoQuerySchema,
        response: { 200: clusterSsoResponseSchema, ...writes },
      }),
      handler: async (request) => clusters.ticket(callerOf(request), request.params.deploymentId, request.query.page),
    });

    app.put('/api/cluster/manager-access/:deploymentId', {
      ...customer({
        summary: "Change some people's levels in the cluster's Kumo Manager; someone always keeps administrative privileges",
        params: deploymentIdParamsSchema,
        body: putManagerAccessRequestSchema,
        response: { 200: managerAccessResponseSchema, ...writes },
      }),
      handler: async (request) => clusters.putManagerAccess(callerOf(request), request.params.deploymentId, request.body),
    });

    // A person only: a token that could change the password could also lock its owner out of the engine.
    app.post('/api/cluster/reset-password/:deploymentId', {
      config: personOnly,
      ...customer({
        summary: "Set a new password for the cluster's SQL user (kumo_admin), by the create form's rules",
        params: deploymentIdParamsSchema,
        body: resetClusterPasswordRequestSchema,
        response: { 200: resetClusterPasswordResponseSchema, ...writes, 503: reads[400] },
      }),
      handler: async (request) => {
        const { deploymentId } = await clusters.resetSqlPassword(callerOf(request), request.params.deploymentId, request.body.password);
        return { deployment_id: deploymentId, message: CLUSTER_SQL_MESSAGES.passwordReset };
      },
    });
    await registerNetworkAccessRoutes(fastify, clusters, verify);
    await registerResizeRoutes(fastify, clusters, verify);
  };
}

/**
 * The four-eyes calls (spec sections 4 and 7): ask for an action, complete it with an approver's OTP, send new OTPs,
 * withdraw it, and see what waits. The spec's own names for asking (update-service-rate, update-account-metrics,
 * add-amount, delete-cluster) are the same request under a fixed action_name: one service call, one set of rules.
 */
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  ADMIN_ACTION_PERMISSIONS,
  type AdminActionName,
  type AdminActionOrder,
  addAmountRequestSchema,
  adminActionRequestSchema,
  adminActionResponseSchema,
  adminAuthenticateRequestSchema,
  adminAuthenticateResponseSchema,
  adminCancelRequestSchema,
  adminCancelResponseSchema,
  adminDeploymentIdParamsSchema,
  adminResendOtpRequestSchema,
  adminUserIdQuerySchema,
  pendingApprovalsSchema,
  updateAccountMetricsRequestSchema,
  updateServiceRateRequestSchema,
} from '@kumo/contract';
import { changesState } from '../../http/auth-guard.js';
import { callerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import type { FourEyes } from './four-eyes.service.js';
import type { StaffRoute } from './staff-route.js';
import { idempotent } from '../../http/idempotency.js';

const asked = { 200: adminActionResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 429) };
const sameAs = 'Same as POST /api/admin/action with action_name';

/** The customer and the payload of an order, read from a request its schema has validated. */
type OrderOf = (request: FastifyRequest) => { user_id: string; action_payload: unknown };
const bodyOrder: OrderOf = (request) => request.body as ReturnType<OrderOf>;

/** One of the spec's names for asking: POST /api/admin/action under a fixed action_name. */
interface SpecNamedAsk {
  method: 'GET' | 'POST';
  url: string;
  action: AdminActionName;
  summary: string;
  schema: Pick<FastifySchema, 'body' | 'params' | 'querystring'>;
  writes?: typeof changesState;
  /** Where the order is when it is not the body. */
  order?: OrderOf;
}

const SPEC_NAMED_ASKS: SpecNamedAsk[] = [
  {
    method: 'POST',
    url: '/api/admin/update-service-rate',
    action: 'change_service_rate',
    summary: `Ask to change the customer's service rates (${sameAs} change_service_rate)`,
    schema: { body: updateServiceRateRequestSchema },
  },
  {
    method: 'POST',
    url: '/api/admin/update-account-metrics',
    action: 'change_overdue_limit',
    summary: `Ask to change the customer's overdue limit (${sameAs} change_overdue_limit)`,
    schema: { body: updateAccountMetricsRequestSchema },
  },
  {
    method: 'POST',
    url: '/api/admin/add-amount',
    action: 'add_funds',
    summary: `Ask to add funds to a customer's subscription (${sameAs} add_funds)`,
    schema: { body: addAmountRequestSchema },
  },
  {
    method: 'GET',
    url: '/api/admin/delete-cluster/:deploymentId',
    action: 'delete_cluster',
    summary: `Ask to delete a customer's cluster (?userId names the customer; ${sameAs} delete_cluster)`,
    schema: { params: adminDeploymentIdParamsSchema, querystring: adminUserIdQuerySchema },
    writes: changesState,
    order: (request) => {
      const { deploymentId } = request.params as z.output<typeof adminDeploymentIdParamsSchema>;
      const { userId } = request.query as z.output<typeof adminUserIdQuerySchema>;
      return { user_id: userId, action_payload: { deployment_id: deploymentId } };
    },
  },
];

export async function fourEyesRoutes(fastify: FastifyInstance, fourEyes: FourEyes, staff: StaffRoute): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Asking needs customer_details; the action's own key is checked by the service for that action.
  app.post('/api/admin/action', {
    ...staff(
      'customer_details',
      {
        summary: 'Ask for a sensitive action; the OTP goes to the approvers, never to the requester',
        body: adminActionRequestSchema,
        response: asked,
      },
      idempotent,
    ),
    handler: async (request) => fourEyes.request(callerOf(request), request.body),
  });

  // The spec's names: the route checks the action's own key, then the same service call checks it again.
  for (const ask of SPEC_NAMED_ASKS) {
    app.route({
      method: ask.method,
      url: ask.url,
      ...staff(ADMIN_ACTION_PERMISSIONS[ask.action], { summary: ask.summary, ...ask.schema, response: asked }, ask.writes),
      handler: async (request) =>
        fourEyes.request(callerOf(request), { action_name: ask.action, ...(ask.order ?? bodyOrder)(request) } as AdminActionOrder),
    });
  }

  app.post('/api/admin/action/authenticate', {
    ...staff(
      'customer_details',
      {
        summary: "Complete an action with an approver's OTP (single use)",
        body: adminAuthenticateRequestSchema,
        response: { 200: adminAuthenticateResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
      idempotent,
    ),
    handler: async (request) => fourEyes.authenticate(callerOf(request), request.body.operation_id, request.body.otp),
  });

  app.post('/api/admin/action/resend-otp', {
    ...staff('customer_details', {
      summary: 'Send the approvers new OTPs for a waiting action',
      body: adminResendOtpRequestSchema,
      response: asked,
    }),
    handler: async (request) => fourEyes.resend(callerOf(request), request.body.operation_id),
  });

  app.post('/api/admin/action/cancel', {
    ...staff('customer_details', {
      summary: 'Withdraw an action I asked for that still waits for approval: its OTPs stop working',
      body: adminCancelRequestSchema,
      response: { 200: adminCancelResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 422) },
    }),
    handler: async (request) => fourEyes.cancel(callerOf(request), request.body.operation_id),
  });

  app.get('/api/admin/action/mine', {
    ...staff('customer_details', {
      summary: 'Actions I asked for that still wait for an approver, in words',
      response: { 200: pendingApprovalsSchema, ...errorResponses(401, 403) },
    }),
    handler: async (request) => fourEyes.myPendingRequests(callerOf(request)),
  });

  app.get('/api/admin/approvals', {
    ...staff('customer_details', {
      summary: 'Actions waiting for my approval, in words',
      response: { 200: pendingApprovalsSchema, ...errorResponses(401, 403) },
    }),
    handler: async (request) => fourEyes.pendingApprovals(callerOf(request)),
  });
}

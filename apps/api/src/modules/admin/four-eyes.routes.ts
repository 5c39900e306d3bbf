/**
 * The four-eyes calls (spec sections 4 and 7): ask for an action, complete it with an approver's OTP, send new OTPs,
 * withdraw it, and see what waits. The spec's own names for asking (update-service-rate, update-account-metrics,
 * add-amount, delete-cluster) are the same request under a fixed action_name: one service call, one set of rules.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADMIN_ACTION_PERMISSIONS,
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

const asked = { 200: adminActionResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 429) };
const sameAs = 'Same as POST /api/admin/action with action_name';

export async function fourEyesRoutes(fastify: FastifyInstance, fourEyes: FourEyes, staff: StaffRoute): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Asking needs customer_details; the action's own key is checked by the service for that action.
  app.post('/api/admin/action', {
    ...staff('customer_details', {
      summary: 'Ask for a sensitive action; the OTP goes to the approvers, never to the requester',
      body: adminActionRequestSchema,
      response: asked,
    }),
    handler: async (request) => fourEyes.request(callerOf(request), request.body),
  });

  // The spec's names: the route checks the action's own key, then the same service call checks it again.
  app.post('/api/admin/update-service-rate', {
    ...staff(ADMIN_ACTION_PERMISSIONS.change_service_rate, {
      summary: `Ask to change the customer's service rates (${sameAs} change_service_rate)`,
      body: updateServiceRateRequestSchema,
      response: asked,
    }),
    handler: async (request) => fourEyes.request(callerOf(request), { action_name: 'change_service_rate', ...request.body }),
  });

  app.post('/api/admin/update-account-metrics', {
    ...staff(ADMIN_ACTION_PERMISSIONS.change_overdue_limit, {
      summary: `Ask to change the customer's overdue limit (${sameAs} change_overdue_limit)`,
      body: updateAccountMetricsRequestSchema,
      response: asked,
    }),
    handler: async (request) => fourEyes.request(callerOf(request), { action_name: 'change_overdue_limit', ...request.body }),
  });

  app.post('/api/admin/add-amount', {
    ...staff(ADMIN_ACTION_PERMISSIONS.add_funds, {
      summary: `Ask to add funds to a customer's subscription (${sameAs} add_funds)`,
      body: addAmountRequestSchema,
      response: asked,
    }),
    handler: async (request) => fourEyes.request(callerOf(request), { action_name: 'add_funds', ...request.body }),
  });

  app.get('/api/admin/delete-cluster/:deploymentId', {
    ...staff(
      ADMIN_ACTION_PERMISSIONS.delete_cluster,
      {
        summary: `Ask to delete a customer's cluster (?userId names the customer; ${sameAs} delete_cluster)`,
        params: adminDeploymentIdParamsSchema,
        querystring: adminUserIdQuerySchema,
        response: asked,
      },
      changesState,
    ),
    handler: async (request) =>
      fourEyes.request(callerOf(request), {
        action_name: 'delete_cluster',
        user_id: request.query.userId,
        action_payload: { deployment_id: request.params.deploymentId },
      }),
  });

  app.post('/api/admin/action/authenticate', {
    ...staff('customer_details', {
      summary: "Complete an action with an approver's OTP (single use)",
      body: adminAuthenticateRequestSchema,
      response: { 200: adminAuthenticateResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
    }),
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

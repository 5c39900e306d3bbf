import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  HEADERS,
  PERMISSION_KEYS,
  adminAccountUsersPageSchema,
  adminCostAnalysisSchema,
  adminCurrentRatesSchema,
  cumulativeCostSchema,
  rateHistoryPageSchema,
  adminClusterPageSchema,
  adminClusterViewQuerySchema,
  adminDeploymentIdParamsSchema,
  adminListQuerySchema,
  adminNodeDetailsSchema,
  adminSubscriptionIdParamsSchema,
  adminSubscriptionsPageSchema,
  adminTransactionIdParamsSchema,
  adminTransactionPageSchema,
  adminTransactionsQuerySchema,
  adminUserIdParamsSchema,
  adminUserIdQuerySchema,
  customerDetailSchema,
  eaVersionActionQuerySchema,
  eaVersionActionResponseSchema,
  kmAccessCheckSchema,
  manageKmAccessRequestSchema,
  manageKmAccessResponseSchema,
  managerSsoResponseSchema,
  customerPageSchema,
  customerListQuerySchema,
  switchUserResponseSchema,
} from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { sendTokens } from '../../http/send-tokens.js';
import { changesState, type TokenVerifier } from '../../http/auth-guard.js';
import { callerOf } from '../../http/caller.js';
import type { AdminService } from './admin.service.js';
import { fourEyesRoutes } from './four-eyes.routes.js';
import { staffRoutes } from './staff-route.js';
import { idempotent } from '../../http/idempotency.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The staff permission key an admin route checks (see enforcePermissionKeys). */
    permission?: string;
  }
}

/** Every admin route and the permission key it checks, as registered (the access tests read it). */
export const ADMIN_ROUTE_PERMISSIONS = new Map<string, string>();

/**
 * Refuses, at start-up, an admin route without a permission key: each declares `config.permission`, and its
 * onRequest guard is built from that same key, so a route cannot be reachable with no key checked.
 */
export function enforcePermissionKeys(route: RouteOptions): string | undefined {
  if (!route.url.startsWith('/api/admin')) return undefined;
  const permission = route.config?.permission;
  if (!permission || !PERMISSION_KEYS.includes(permission) || !route.onRequest)
    throw new Error(`admin route ${String(route.method)} ${route.url} has no permission key`);
  return permission;
}

export function adminRoutes(admin: AdminService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    fastify.addHook('onRoute', (route) => {
      const permission = enforcePermissionKeys(route);
      if (!permission) return;
      for (const method of [route.method].flat()) if (method !== 'HEAD') ADMIN_ROUTE_PERMISSIONS.set(`${method} ${route.url}`, permission);
    });
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const staff = staffRoutes(verify);

    app.get('/api/admin/users', {
      ...staff('customer_list', {
        summary: 'Customers by e-mail, 50 a page; ?search keeps those whose e-mail or name contains it',
        querystring: customerListQuerySchema,
        response: { 200: customerPageSchema, ...errorResponses(400, 401, 403) },
      }),
      handler: async (request) => admin.listCustomers(request.query.page, request.query.size, request.query.search),
    });

    const views = admin.customers;

    app.get('/api/admin/users/:userId', {
      ...staff('customer_details', {
        summary: 'One customer: header, overview and added users',
        params: adminUserIdParamsSchema,
        response: { 200: customerDetailSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.detail(request.params.userId),
    });

    app.get('/api/admin/view-users/:userId', {
      ...staff('customer_added_users', {
        summary: "The customer's account users, 20 a page",
        params: adminUserIdParamsSchema,
        querystring: adminListQuerySchema,
        response: { 200: adminAccountUsersPageSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.accountUsers(request.params.userId, request.query.page, request.query.size),
    });

    app.get('/api/admin/view-subscriptions/:userId', {
      ...staff('customer_subscription_table', {
        summary: "The customer's subscriptions, 20 a page",
        params: adminUserIdParamsSchema,
        querystring: adminListQuerySchema,
        response: { 200: adminSubscriptionsPageSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.subscriptions(request.params.userId, request.query.page, request.query.size),
    });

    app.get('/api/admin/view/credit-transactions/:id', {
      ...staff('customer_transaction_table', {
        summary: "A customer's subscription's transactions (id = subscription id), 20 a page",
        params: adminSubscriptionIdParamsSchema,
        querystring: adminTransactionsQuerySchema,
        response: { 200: adminTransactionPageSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.transactions(request.query.userId, request.params.id, request.query.page, request.query.size),
    });

    app.get('/api/admin/download-transaction-receipt/:transactionId', {
      ...staff('customer_transactions_receipts', {
        summary: "The PDF receipt of a customer's card purchase; staff-added funds have none (422)",
        params: adminTransactionIdParamsSchema,
        querystring: adminUserIdQuerySchema,
        produces: ['application/pdf', 'application/json'],
        // The PDF's 200 is documented in http/openapi-parts.ts; a Buffer is sent as it is, never serialised.
        response: { 200: z.unknown(), ...errorResponses(400, 401, 403, 404, 422) },
      }),
      handler: async (request, reply) => {
        const zone = request.headers[HEADERS.userTimeZone];
        const { filename, pdf } = await views.receipt(
          request.query.userId,
          request.params.transactionId,
          typeof zone === 'string' ? zone : undefined,
        );
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'private, no-store')
          .send(pdf);
      },
    });

    app.get('/api/admin/cluster/view', {
      ...staff('customer_cluster_table', {
        summary: "The customer's clusters, newest first, 20 a page; ?subscriptionId keeps one subscription's",
        querystring: adminClusterViewQuerySchema,
        response: { 200: adminClusterPageSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) =>
        views.clusters(request.query.userId, request.query.page, request.query.size, request.query.subscriptionId),
    });

    app.get('/api/admin/node-details-view/:deploymentId', {
      ...staff('customer_cluster_view_details', {
        summary: "A customer's cluster with its nodes",
        params: adminDeploymentIdParamsSchema,
        querystring: adminUserIdQuerySchema,
        response: { 200: adminNodeDetailsSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.nodeDetails(request.query.userId, request.params.deploymentId, callerOf(request).userId),
    });

    app.post('/api/admin/kumo-ea-version/:userId', {
      ...staff(
        'customer_preview_release',
        {
          summary: 'Offer preview Kumo versions to the customer, or stop offering them',
          params: adminUserIdParamsSchema,
          querystring: eaVersionActionQuerySchema,
          response: { 200: eaVersionActionResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
        idempotent,
      ),
      handler: async (request) => views.setPreview(request.params.userId, request.query.action === 'ENABLE', callerOf(request).userId),
    });

    app.get('/api/admin/check-km-access/:userId', {
      ...staff('customer_km_access', {
        summary: "May the customer's manager access change now (every cluster online)?",
        params: adminUserIdParamsSchema,
        response: { 200: kmAccessCheckSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.checkKmAccess(request.params.userId),
    });

    app.post('/api/admin/manage-km-access/:userId', {
      ...staff(
        'customer_manage_km_access',
        {
          summary: "Change the provider's access to the customer's manager and the customer's manager role",
          params: adminUserIdParamsSchema,
          body: manageKmAccessRequestSchema,
          response: { 200: manageKmAccessResponseSchema, ...errorResponses(400, 401, 403, 404, 422) },
        },
        idempotent,
      ),
      handler: async (request) => views.manageKmAccess(request.params.userId, request.body, callerOf(request).userId),
    });

    app.get('/api/admin/current-resource-rate/:userId', {
      ...staff('customer_current_rates', {
        summary: "The customer's rates in force now",
        params: adminUserIdParamsSchema,
        response: { 200: adminCurrentRatesSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.currentRates(request.params.userId),
    });

    app.get('/api/admin/service-rate-history/:userId', {
      ...staff('customer_rate_history', {
        summary: "The customer's rate periods, newest first, keyed by start_end",
        params: adminUserIdParamsSchema,
        querystring: adminListQuerySchema,
        response: { 200: rateHistoryPageSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.rateHistory(request.params.userId, request.query.page, request.query.size),
    });

    app.get('/api/admin/cost-analysis/:userId', {
      ...staff('customer_cost_current_month', {
        summary: "The customer's cost this month per subscription, 20 a page",
        params: adminUserIdParamsSchema,
        querystring: adminListQuerySchema,
        response: { 200: adminCostAnalysisSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.costAnalysis(request.params.userId, request.query.page, request.query.size),
    });

    app.get('/api/admin/view/cumulative-cost-consumption', {
      ...staff('customer_cost_last_months', {
        summary: "The customer's cost in each of the last 12 months",
        querystring: adminUserIdQuerySchema,
        response: { 200: cumulativeCostSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => views.cumulativeCost(request.query.userId),
    });

    app.get('/api/admin/download-cluster-template/:deploymentId', {
      ...staff(
        'customer_cluster_download_template',
        {
          summary: "The deployment template of a customer's cluster, as a JSON file",
          params: adminDeploymentIdParamsSchema,
          querystring: adminUserIdQuerySchema,
          produces: ['application/json'],
          // The template is sent as the JSON text it is (documented in http/openapi-parts.ts).
          response: { 200: z.string(), ...errorResponses(400, 401, 403, 404) },
        },
        changesState,
      ),
      handler: async (request, reply) => {
        const { filename, body } = await views.clusterTemplate(request.query.userId, request.params.deploymentId, callerOf(request).userId);
        return reply
          .type('application/json')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'private, no-store')
          .send(body);
      },
    });

    app.get('/api/admin/kumo/sso/:deploymentId', {
      ...staff(
        'customer_open_km',
        {
          summary: "A short-lived signed address of the customer's cluster manager",
          params: adminDeploymentIdParamsSchema,
          querystring: adminUserIdQuerySchema,
          response: { 200: managerSsoResponseSchema, ...errorResponses(400, 401, 403, 404, 422) },
        },
        changesState,
      ),
      handler: async (request) => views.managerSso(request.query.userId, request.params.deploymentId, callerOf(request).userId),
    });

    app.post('/api/admin/switch-user/:userId', {
      ...staff('customer_switch_user', {
        summary: "View the customer's console as the customer, read-only (userSwitched): tokens in the response headers",
        params: adminUserIdParamsSchema,
        response: { 200: switchUserResponseSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request, reply) => {
        const { tokens, body } = await admin.switchUser(callerOf(request).userId, request.params.userId);
        sendTokens(request, reply, tokens);
        return body;
      },
    });

    await fourEyesRoutes(fastify, admin.fourEyes, staff);
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  createSubscriptionRequestSchema,
  createSubscriptionResponseSchema,
  errorResponseSchema,
  messageResponseSchema,
  subscriptionDetailsQuerySchema,
  subscriptionIdParamsSchema,
  subscriptionListSchema,
  subscriptionSchema,
} from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { claimsOf, requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import type { SubscriptionsService } from './subscriptions.service.js';

const tags = ['Subscriptions'];
const security = [{ bearerAuth: [] }];
const errors = errorResponses(400, 401, 403, 404);

/** The account every customer call works in; the guard has made sure there is one. */
const accountOf = (claims: ReturnType<typeof claimsOf>) => claims.accountId!;

export function subscriptionsRoutes(subscriptions: SubscriptionsService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const customer = requireAccountAdmin(verify);

    app.get('/api/subscription/list', {
      onRequest: customer,
      schema: {
        tags,
        security,
        summary: "The account's subscriptions with their balances",
        response: { 200: subscriptionListSchema, ...errors },
      },
      handler: async (request) => subscriptions.list(accountOf(claimsOf(request))),
    });

    app.get('/api/subscription/details', {
      onRequest: customer,
      schema: {
        tags,
        security,
        summary: 'One subscription: status, balance, credits',
        querystring: subscriptionDetailsQuerySchema,
        response: { 200: subscriptionSchema, ...errors },
      },
      handler: async (request) => subscriptions.details(accountOf(claimsOf(request)), request.query.subscription_id),
    });

    app.post('/api/subscription/create', {
      onRequest: customer,
      schema: {
        tags,
        security,
        summary: 'Create a prepaid subscription (the first one gets the sign-up credits)',
        body: createSubscriptionRequestSchema,
        response: { 200: createSubscriptionResponseSchema, ...errors, 409: errorResponseSchema },
      },
      handler: async (request) => {
        const claims = claimsOf(request);
        const id = await subscriptions.create(accountOf(claims), claims.userId, request.body);
        return { subscription_id: id, message: MESSAGES.subscriptionCreated };
      },
    });

    app.delete('/api/subscription/delete/:id', {
      onRequest: customer,
      schema: {
        tags,
        security,
        summary: 'Delete a subscription that has no clusters',
        params: subscriptionIdParamsSchema,
        response: { 200: messageResponseSchema, ...errors, 422: errorResponseSchema },
      },
      handler: async (request) => {
        await subscriptions.delete(accountOf(claimsOf(request)), request.params.id);
        return { message: MESSAGES.subscriptionDeleted };
      },
    });
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  centsToAmount,
  deleteSubscriptionErrorSchema,
  deleteSubscriptionQuerySchema,
  deleteSubscriptionResponseSchema,
  createSubscriptionRequestSchema,
  createSubscriptionResponseSchema,
  errorResponseSchema,
  subscriptionDetailsQuerySchema,
  subscriptionIdParamsSchema,
  subscriptionListSchema,
  subscriptionSchema,
} from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { routeDeclarations } from '../../http/route.js';
import { toSubscriptionWire } from './presentation.js';
import type { SubscriptionsService } from './subscriptions.service.js';
import { idempotent } from '../../http/idempotency.js';

const routes = routeDeclarations('Subscriptions');
const errors = errorResponses(400, 401, 403, 404);

export function subscriptionsRoutes(subscriptions: SubscriptionsService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const customer = routes.behind(requireAccountAdmin(verify));

    app.get('/api/subscription/list', {
      ...customer({
        summary: "The account's subscriptions with their balances",
        response: { 200: subscriptionListSchema, ...errors },
      }),
      handler: async (request) => (await subscriptions.listWithMonthSpend(accountCallerOf(request).accountId)).map(toSubscriptionWire),
    });

    app.get('/api/subscription/details', {
      ...customer({
        summary: 'One subscription: status, balance, credits',
        querystring: subscriptionDetailsQuerySchema,
        response: { 200: subscriptionSchema, ...errors },
      }),
      handler: async (request) =>
        toSubscriptionWire(await subscriptions.detailsWithMonthSpend(accountCallerOf(request).accountId, request.query.subscription_id)),
    });

    app.post('/api/subscription/create', {
      config: idempotent,
      ...customer({
        summary: 'Create a prepaid subscription (the first one gets the sign-up credits)',
        body: createSubscriptionRequestSchema,
        response: { 200: createSubscriptionResponseSchema, ...errors, 409: errorResponseSchema },
      }),
      handler: async (request) => {
        const caller = accountCallerOf(request);
        const id = await subscriptions.create(caller.accountId, caller.userId, request.body);
        return { subscription_id: id, message: MESSAGES.subscriptionCreated };
      },
    });

    app.delete('/api/subscription/delete/:id', {
      ...customer({
        summary: 'Delete a subscription that has no clusters',
        description:
          'A subscription with clusters that are not deleted is refused (422 SUBSCRIPTION_HAS_CLUSTERS): the message names ' +
          'them and `clusters` lists their ids and names. ' +
          'A subscription that still holds paid funds is refused (422 SUBSCRIPTION_HAS_FUNDS, with the amount) unless ' +
          'transfer_to names another active subscription of the account: the paid balance moves there through the ledger ' +
          'in the same transaction. Free credits are not transferable; they end with the subscription. ' +
          'While an automatic top-up of it is still being charged it is refused (409 TOP_UP_PENDING); deleting it turns ' +
          'automatic top-up off.',
        params: subscriptionIdParamsSchema,
        querystring: deleteSubscriptionQuerySchema,
        response: { 200: deleteSubscriptionResponseSchema, ...errorResponses(400, 401, 403, 404, 409), 422: deleteSubscriptionErrorSchema },
      }),
      handler: async (request) => {
        const caller = accountCallerOf(request);
        const { transferredCents } = await subscriptions.delete(caller.accountId, request.params.id, {
          transferTo: request.query.transfer_to,
          actorUserId: caller.userId,
        });
        return {
          message: transferredCents > 0 ? MESSAGES.subscriptionFundsTransferred : MESSAGES.subscriptionDeleted,
          transferred_amount: centsToAmount(transferredCents),
        };
      },
    });
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  autoTopUpParamsSchema,
  autoTopUpQuerySchema,
  autoTopUpRequestSchema,
  autoTopUpSchema,
  paymentMethodSetupSchema,
} from '@kumo/contract';
import { changesStateWhen, personOnly, requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { errorResponses } from '../../http/error-responses.js';
import { routeDeclarations } from '../../http/route.js';
import type { AutoTopUpService } from './auto-top-up.service.js';
import { toAutoTopUpWire } from './presentation.js';
import { idempotent } from '../../http/idempotency.js';

const routes = routeDeclarations('Automatic top-up');
const errors = errorResponses(400, 401, 403, 404);

/** The customer's return from the card-saving page asks the provider and stores the card: a write. */
const readsCardBack = changesStateWhen((request) => (request.query as Record<string, unknown> | undefined)?.card === 'saved');

export function autoTopUpRoutes(autoTopUp: AutoTopUpService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const customer = routes.behind(requireAccountAdmin(verify));

    app.get('/api/subscription/:subscriptionId/auto-top-up', {
      ...customer({
        summary: "The subscription's automatic top-up: settings, saved card, this month's top-ups and the last attempt",
        description:
          'Off with the defaults until saved. With card=saved (the customer is back from the provider’s card-saving page) the ' +
          'card saved there is read back from the provider first; otherwise the provider’s notification brings it. A session ' +
          'older than 24 hours has expired and is not read again. That read stores the card, so a READ token or a staff ' +
          'member viewing the customer is refused it (403), while the plain read is theirs.',
        params: autoTopUpParamsSchema,
        querystring: autoTopUpQuerySchema,
        response: { 200: autoTopUpSchema, ...errors },
      }),
      config: readsCardBack,
      handler: async (request) =>
        toAutoTopUpWire(
          await autoTopUp.get(accountCallerOf(request).accountId, request.params.subscriptionId, {
            cardReturn: request.query.card === 'saved',
          }),
        ),
    });

    app.put('/api/subscription/:subscriptionId/auto-top-up', {
      ...customer({
        summary: 'Save the automatic top-up: on or off, threshold, top-up amount and monthly cap',
        description:
          'After a metering run leaves the balance under threshold_amount, top_up_amount is charged to the saved card, at most once ' +
          'an hour and never taking the month’s top-ups over monthly_cap. Turning it on needs a saved card (422 ' +
          'PAYMENT_METHOD_REQUIRED); a card just saved is read back from the provider first (503 with Retry-After when it cannot ' +
          'be reached). Saving takes a top-up paused after a failed charge back to ACTIVE. A personal API token may turn it off ' +
          'or lower its amounts; turning it on (or back on after a pause) or raising an amount is 403 TOKEN_NOT_ALLOWED.',
        params: autoTopUpParamsSchema,
        body: autoTopUpRequestSchema,
        response: { 200: autoTopUpSchema, ...errorResponses(400, 401, 403, 404, 422, 503) },
      }),
      handler: async (request) => {
        const caller = accountCallerOf(request);
        const author = { viaApiToken: Boolean(caller.apiToken) };
        return toAutoTopUpWire(await autoTopUp.put(caller.accountId, request.params.subscriptionId, request.body, author));
      },
    });

    app.post('/api/subscription/:subscriptionId/payment-method', {
      ...customer({
        summary: 'Save a card for automatic top-up: where to send the browser',
        description:
          'A Stripe Checkout session in setup mode for the subscription’s customer (the sandbox’s own page without Stripe). ' +
          'It returns to /subscriptions/{subscriptionId}?card=saved, or to /subscriptions/{subscriptionId} when cancelled. ' +
          'A new card takes a paused top-up back to ACTIVE. A person only: a personal API token is refused (403 TOKEN_NOT_ALLOWED).',
        params: autoTopUpParamsSchema,
        response: { 200: paymentMethodSetupSchema, ...errorResponses(400, 401, 403, 404, 503) },
      }),
      config: { ...personOnly, ...idempotent },
      handler: async (request) => {
        const caller = accountCallerOf(request);
        return autoTopUp.setupPaymentMethod(caller.accountId, caller.userId, request.params.subscriptionId);
      },
    });

    app.delete('/api/subscription/:subscriptionId/payment-method', {
      ...customer({
        summary: 'Remove the saved card and turn automatic top-up off',
        description: 'A person only: a personal API token is refused (403 TOKEN_NOT_ALLOWED).',
        params: autoTopUpParamsSchema,
        response: { 200: autoTopUpSchema, ...errors },
      }),
      config: personOnly,
      handler: async (request) =>
        toAutoTopUpWire(await autoTopUp.deletePaymentMethod(accountCallerOf(request).accountId, request.params.subscriptionId)),
    });
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  WEBHOOK_LIMITS,
  WEBHOOK_MESSAGES,
  createWebhookRequestSchema,
  createdWebhookSchema,
  messageResponseSchema,
  webhookListSchema,
  webhookParamsSchema,
  webhookTestResponseSchema,
} from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { personOnly, requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { routeDeclarations } from '../../http/route.js';
import type { WebhooksService } from './webhooks.service.js';
import { toCreatedWebhookWire, toWebhookWire } from './presentation.js';
import { idempotent } from '../../http/idempotency.js';

const routes = routeDeclarations('Webhooks');

/**
 * Test events per endpoint, counted in the shared store (every process counts the same), after the guard (preHandler),
 * so only the account's own people count against an endpoint of theirs.
 */
const testEventLimit = {
  max: WEBHOOK_LIMITS.testEventsPerMinute,
  timeWindow: '1 minute',
  hook: 'preHandler' as const,
  keyGenerator: (request: FastifyRequest) =>
    `webhook-test:${request.caller?.accountId ?? ''}:${(request.params as { webhookId?: string }).webhookId ?? ''}`,
};

export function webhooksRoutes(webhooks: WebhooksService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    // Owners and admins. An API token never adds, removes or tests where events go; it may list the endpoints, each
    // address cut to its origin.
    const person = routes.behind(requireAccountAdmin(verify));

    app.post('/api/account/webhooks', {
      config: { ...personOnly, ...idempotent },
      ...person({
        summary: "Add an endpoint the account's events are sent to",
        description:
          'The answer holds the signing secret (`secret`); it is shown this once. Each delivery carries ' +
          '`Kumo-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.',
        body: createWebhookRequestSchema,
        response: { 200: createdWebhookSchema, ...errorResponses(400, 401, 403, 422) },
      }),
      handler: async (request) => toCreatedWebhookWire(await webhooks.create(accountCallerOf(request), request.body)),
    });

    app.get('/api/account/webhooks', {
      ...person({
        summary: "The account's webhook endpoints, without secrets, with their last deliveries and attempts",
        description: "A personal API token reads each endpoint's address as its origin only (`https://hooks.example.com/…`).",
        response: { 200: webhookListSchema, ...errorResponses(401, 403) },
      }),
      handler: async (request) => {
        const caller = accountCallerOf(request);
        const originOnly = caller.apiToken !== undefined;
        return (await webhooks.list(caller)).map((webhook) => toWebhookWire(webhook, { originOnly }));
      },
    });

    app.delete('/api/account/webhooks/:webhookId', {
      config: personOnly,
      ...person({
        summary: 'Delete a webhook endpoint: nothing more is sent to it',
        params: webhookParamsSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => {
        await webhooks.remove(accountCallerOf(request), request.params.webhookId);
        return { message: WEBHOOK_MESSAGES.deleted };
      },
    });

    app.post('/api/account/webhooks/:webhookId/test', {
      config: { ...personOnly, ...idempotent, rateLimit: testEventLimit },
      ...person({
        summary: 'Send the endpoint a signed `webhook.test` event',
        description: `At most ${WEBHOOK_LIMITS.testEventsPerMinute} a minute per endpoint: past that, 429 RATE_LIMITED with Retry-After.`,
        params: webhookParamsSchema,
        response: { 200: webhookTestResponseSchema, ...errorResponses(400, 401, 403, 404, 429) },
      }),
      handler: async (request) => ({
        event_id: await webhooks.test(accountCallerOf(request), request.params.webhookId),
        message: WEBHOOK_MESSAGES.testQueued,
      }),
    });
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  API_TOKEN_MESSAGES,
  apiTokenListSchema,
  apiTokenParamsSchema,
  createApiTokenRequestSchema,
  createdApiTokenSchema,
  messageResponseSchema,
} from '@kumo/contract';
import { errorResponses } from '../../http/error-responses.js';
import { personOnly, requireAccountAdmin, type TokenVerifier } from '../../http/auth-guard.js';
import { accountCallerOf } from '../../http/caller.js';
import { routeDeclarations } from '../../http/route.js';
import type { ApiTokensService } from './api-tokens.service.js';
import { toApiTokenWire, toCreatedApiTokenWire } from './presentation.js';
import { idempotent } from '../../http/idempotency.js';

const routes = routeDeclarations('API tokens');
const errors = errorResponses(400, 401, 403);

export function apiTokensRoutes(apiTokens: ApiTokensService, verify: TokenVerifier) {
  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    // Owners and admins manage their own tokens, signed in as a person: a token never makes or lists tokens.
    const person = routes.behind(requireAccountAdmin(verify));

    app.post('/api/user/api-tokens', {
      config: { ...personOnly, ...idempotent },
      ...person({
        summary: 'Create a personal API token for the account you are signed in to',
        description: 'The answer holds the secret (`token`); it is shown this once and stored only as a keyed hash.',
        body: createApiTokenRequestSchema,
        response: { 200: createdApiTokenSchema, ...errorResponses(400, 401, 403, 422) },
      }),
      handler: async (request) => toCreatedApiTokenWire(await apiTokens.create(accountCallerOf(request), request.body)),
    });

    app.get('/api/user/api-tokens', {
      config: personOnly,
      ...person({
        summary: 'Your API tokens in this account, without their secrets, with their last use',
        response: { 200: apiTokenListSchema, ...errors },
      }),
      handler: async (request) => (await apiTokens.list(accountCallerOf(request))).map(toApiTokenWire),
    });

    app.delete('/api/user/api-tokens/:tokenId', {
      config: personOnly,
      ...person({
        summary: 'Revoke one of your API tokens: it is refused from the next call on',
        params: apiTokenParamsSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 404) },
      }),
      handler: async (request) => {
        await apiTokens.revoke(accountCallerOf(request), request.params.tokenId);
        return { message: API_TOKEN_MESSAGES.revoked };
      },
    });
  };
}

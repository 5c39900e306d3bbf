import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@kumo/contract';
import type { SsoOutcome, StaffSsoService } from './staff-sso.service.js';
import { SSO_PATHS, STATE_PATTERN, TRANSACTION_TTL_MS, createTransactionCookies } from './sso-transaction.js';

export interface StaffSsoRouteOptions {
  /** Signs the transaction cookies (the server's auth secret). */
  secret: string;
  /** The portal's public address; the callback URL handed to the provider is built on it. */
  publicUrl: string;
  rateLimitPerMinute: number;
}

const tags = ['Staff single sign-on'];
const flag = z.string().trim().max(16).optional();
const startQuery = z.object({ isSessionExpired: flag, isUserSwitched: flag });
// The provider's answer; other parameters (iss, session_state) pass through untouched.
const callbackQuery = z
  .object({
    code: z.string().max(4096).optional(),
    state: z.string().max(512).optional(),
    error: z.string().max(256).optional(),
    error_description: z.string().max(4096).optional(),
  })
  .loose();
const redirects = {
  302: z.null().describe('Redirect to the identity provider or to the console'),
  400: errorResponseSchema,
  429: errorResponseSchema,
};

function send(request: FastifyRequest, reply: FastifyReply, outcome: SsoOutcome): FastifyReply {
  if (outcome.refused) {
    const { reason, error } = outcome.refused;
    request.log.info({ err: error, reason }, 'staff single sign-on refused');
  }
  return reply.header('cache-control', 'no-store').redirect(outcome.location, 302);
}

/** /oauth2/authorization/azure starts the sign-in; the provider answers on /oauth2/callback/azure. */
export function staffSsoRoutes(sso: StaffSsoService, options: StaffSsoRouteOptions) {
  const cookies = createTransactionCookies(options.secret);
  const secure = options.publicUrl.startsWith('https:');
  const callbackBase = `${options.publicUrl}${SSO_PATHS.callback}`;

  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const rateLimit = { max: options.rateLimitPerMinute, timeWindow: '1 minute' };

    app.get(SSO_PATHS.start, {
      config: { rateLimit },
      schema: {
        tags,
        summary: 'Start staff single sign-on at the identity provider (a browser navigation)',
        description:
          'isSessionExpired=true marks a pop-up that renews an expired session; it and isUserSwitched come back on /oauth2/redirect.',
        querystring: startQuery,
        response: redirects,
      },
      handler: async (request, reply) => {
        const outcome = await sso.start({
          sessionExpired: request.query.isSessionExpired === 'true',
          userSwitched: request.query.isUserSwitched === 'true',
        });
        if (outcome.transaction) {
          reply.setCookie(cookies.name(outcome.transaction.state), cookies.seal(outcome.transaction), {
            path: SSO_PATHS.callback,
            httpOnly: true,
            // Lax: the provider's redirect back is a top-level navigation from another site.
            sameSite: 'lax',
            secure,
            maxAge: TRANSACTION_TTL_MS / 1000,
          });
        }
        return send(request, reply, outcome);
      },
    });

    app.get(SSO_PATHS.callback, {
      config: { rateLimit },
      schema: {
        tags,
        summary: "The identity provider's answer: ends on the console's /oauth2/redirect or /oauth2/error",
        querystring: callbackQuery,
        response: redirects,
      },
      handler: async (request, reply) => {
        const { state } = request.query;
        const name = state && STATE_PATTERN.test(state) ? cookies.name(state) : undefined;
        const transaction = name ? cookies.open(request.cookies[name]) : null;
        // Single use: whatever happens next, this attempt is over.
        if (name && request.cookies[name] !== undefined)
          reply.clearCookie(name, { path: SSO_PATHS.callback, httpOnly: true, sameSite: 'lax', secure });
        const queryIndex = request.url.indexOf('?');
        const callbackUrl = new URL(`${callbackBase}${queryIndex === -1 ? '' : request.url.slice(queryIndex)}`);
        return send(request, reply, await sso.finish(callbackUrl, transaction));
      },
    });
  };
}

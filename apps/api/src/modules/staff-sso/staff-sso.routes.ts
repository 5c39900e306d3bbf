import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '@kumo/contract';
import { routeDeclarations } from '../../http/route.js';
import type { SsoOutcome, StaffSsoService } from './staff-sso.service.js';
import { SSO_COOKIE_PATH, SSO_PATHS, STATE_PATTERN, TRANSACTION_TTL_MS, createTransactionCookies } from './sso-transaction.js';

export interface StaffSsoRouteOptions {
  /** Signs the transaction cookies (the server's auth secret). */
  secret: string;
  /** The portal's public address; the callback URL handed to the provider is built on it. */
  publicUrl: string;
  rateLimitPerMinute: number;
}

const routes = routeDeclarations('Staff single sign-on');
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
  // Lax: the provider's redirect back is a top-level navigation from another site. The path covers the
  // start too, so a new start sees the attempts under way and replaces the cookie instead of adding one.
  const cookieOptions = { path: SSO_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure } as const;

  return async function register(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const rateLimit = { max: options.rateLimitPerMinute, timeWindow: '1 minute' };

    app.get(SSO_PATHS.start, {
      config: { rateLimit },
      ...routes.open({
        summary: 'Start staff single sign-on at the identity provider (a browser navigation)',
        description:
          'isSessionExpired=true marks a pop-up that renews an expired session; it and isUserSwitched come back on /oauth2/redirect.',
        querystring: startQuery,
        response: redirects,
      }),
      handler: async (request, reply) => {
        const outcome = await sso.start({
          sessionExpired: request.query.isSessionExpired === 'true',
          userSwitched: request.query.isUserSwitched === 'true',
        });
        if (outcome.transaction) {
          const started = outcome.transaction;
          const earlier = cookies.open(request.cookies[cookies.name]);
          // Replaces the cookie: the newest few attempts, never one more cookie per start.
          const kept = cookies.withStarted(earlier, started, started.expiresAt - TRANSACTION_TTL_MS);
          reply.setCookie(cookies.name, cookies.seal(kept), { ...cookieOptions, maxAge: TRANSACTION_TTL_MS / 1000 });
        }
        return send(request, reply, outcome);
      },
    });

    app.get(SSO_PATHS.callback, {
      config: { rateLimit },
      ...routes.open({
        summary: "The identity provider's answer: ends on the console's /oauth2/redirect or /oauth2/error",
        querystring: callbackQuery,
        response: redirects,
      }),
      handler: async (request, reply) => {
        const { state } = request.query;
        const attempts = cookies.open(request.cookies[cookies.name]);
        const transaction = state && STATE_PATTERN.test(state) ? (attempts.find((attempt) => attempt.state === state) ?? null) : null;
        // Single use: whatever happens next, this attempt is over; the others stay for their own callbacks.
        if (transaction) {
          const others = attempts.filter((attempt) => attempt !== transaction);
          if (others.length > 0)
            reply.setCookie(cookies.name, cookies.seal(others), { ...cookieOptions, maxAge: TRANSACTION_TTL_MS / 1000 });
          else reply.clearCookie(cookies.name, cookieOptions);
        }
        const queryIndex = request.url.indexOf('?');
        const callbackUrl = new URL(`${callbackBase}${queryIndex === -1 ? '' : request.url.slice(queryIndex)}`);
        return send(request, reply, await sso.finish(callbackUrl, transaction));
      },
    });
  };
}

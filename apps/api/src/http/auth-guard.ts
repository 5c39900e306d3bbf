import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { ADMIN_MESSAGES, MESSAGES, canUseCustomerArea, isSystemRole, permissionsFor } from '@kumo/contract';
import { AppError, forbidden, unauthorized } from '../errors.js';
import type { Caller } from './caller.js';
import { admitApiToken } from './api-token-gate.js';
import { isUnsafeMethod } from './xsrf.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A state-changing call a staff member viewing a customer's console may make: the ones that end the view. */
    allowWhileUserSwitched?: boolean;
    /**
     * Whether the route changes state. Left out, every method but GET, HEAD and OPTIONS does; a GET that writes
     * says so with `changesState` below (false would let a read-only POST through a customer view), one that writes
     * only for some requests with `changesStateWhen`.
     */
    changesState?: boolean | ((request: FastifyRequest) => boolean);
    /** What only a person signed in may do (tokens, invitations, OTP approvals): a personal API token is refused it. */
    personOnly?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Safe by default: a route changes state unless its method is a reading one and it does not say otherwise. */
export function routeChangesState(request: FastifyRequest): boolean {
  const mark = request.routeOptions.config?.changesState;
  return typeof mark === 'function' ? mark(request) : (mark ?? !SAFE_METHODS.has(request.method));
}

/**
 * Route config of a GET that changes state (the specification's cluster start and stop, a ticket or download
 * that is recorded): the guard refuses it to a customer view like any write, and the OpenAPI document marks it
 * `x-changes-state: true` so clients and the read-only walk test know. Fastify's HEAD twin shares the config.
 */
export const changesState = {
  changesState: true,
  swaggerTransform: (input: Parameters<typeof jsonSchemaTransform>[0]) => {
    const transformed = jsonSchemaTransform(input);
    return { ...transformed, schema: { ...transformed.schema, 'x-changes-state': true } };
  },
} satisfies FastifyContextConfig;

/**
 * Route config of a GET that writes only when a request asks it to (its query, read before validation): those
 * requests are refused to a customer view and a READ token like any write, the others are reads. The OpenAPI
 * document marks nothing, since a plain call writes nothing; the route's description says which requests write.
 */
export const changesStateWhen = (writes: (request: FastifyRequest) => boolean) => ({ changesState: writes }) satisfies FastifyContextConfig;

/** Route config of a call a personal API token may never make (see `personOnly` above). */
export const personOnly = { personOnly: true } satisfies FastifyContextConfig;

/** Checks a bearer token (a session's access token, or a personal API token used from `client.ip`) and says who is calling. */
export type TokenVerifier = (token: string, client: { ip: string }) => Promise<Caller>;

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token) throw unauthorized('TOKEN_MISSING', MESSAGES.notSignedIn);
  return token;
}

async function authenticate(
  request: FastifyRequest,
  reply: FastifyReply,
  verify: TokenVerifier,
  area: Pick<FastifyContextConfig, 'personOnly'> = {},
): Promise<Caller> {
  const caller = await verify(bearerToken(request), { ip: request.ip });
  const config = request.routeOptions.config;
  // A personal API token involves no cookie, so no XSRF token either; it has its own limits instead.
  if (caller.apiToken) {
    const personOnlyRoute = !!(area.personOnly || config?.personOnly);
    await admitApiToken(request, reply, caller.apiToken, {
      personOnly: personOnlyRoute,
      changesState: routeChangesState(request),
    });
  }
  // Bearer tokens never ride along cross-site, so state-changing GETs need no XSRF token (decision 0018).
  else if (isUnsafeMethod(request.method)) request.server.xsrf.verify(request, caller.sessionId);
  // A customer view is read-only here, for every route at once and whatever the method, not only in the console.
  if (caller.actingUserId && routeChangesState(request) && !config?.allowWhileUserSwitched)
    throw new AppError(403, 'READ_ONLY_VIEW', ADMIN_MESSAGES.readOnlyView);
  request.caller = caller;
  return caller;
}

/** onRequest hook (authentication comes before body validation) that requires a live access token (and, for state changes, the XSRF token) and puts the caller on the request (callerOf in caller.ts). */
export function requireSignedIn(verify: TokenVerifier) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await authenticate(request, reply, verify);
  };
}

/** onRequest hook for the customer area: the owner or an admin of the logged-in account. */
export function requireAccountAdmin(verify: TokenVerifier) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const caller = await authenticate(request, reply, verify);
    if (!caller.accountId || !canUseCustomerArea(caller.role)) throw forbidden(MESSAGES.customerAreaOnly);
  };
}

/** onRequest hook for the admin area: a signed-in staff member whose role has `permission` ENABLED. */
export function requireStaff(verify: TokenVerifier, permission: string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // The staff area is a person's only: a personal API token never reaches it.
    const caller = await authenticate(request, reply, verify, { personOnly: true });
    if (!isSystemRole(caller.role) || permissionsFor(caller.role)[permission] !== 'ENABLED') throw forbidden();
  };
}

import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { ADMIN_MESSAGES, MESSAGES, canUseCustomerArea, isSystemRole, permissionsFor } from '@kumo/contract';
import { AppError, forbidden, unauthorized } from '../errors.js';
import type { Caller } from './caller.js';
import { isUnsafeMethod } from './xsrf.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A state-changing call a staff member viewing a customer's console may make: the ones that end the view. */
    allowWhileUserSwitched?: boolean;
    /**
     * Whether the route changes state. Left out, every method but GET, HEAD and OPTIONS does; a GET that writes
     * says so with `changesState` below (false would let a read-only POST through a customer view).
     */
    changesState?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Safe by default: a route changes state unless its method is a reading one and it does not say otherwise. */
export function routeChangesState(method: string, config: Pick<FastifyContextConfig, 'changesState'> | undefined): boolean {
  return config?.changesState ?? !SAFE_METHODS.has(method);
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

/** Checks an access token and its session, and says who is calling. */
export type TokenVerifier = (token: string) => Promise<Caller>;

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token) throw unauthorized('TOKEN_MISSING', MESSAGES.notSignedIn);
  return token;
}

async function authenticate(request: FastifyRequest, verify: TokenVerifier): Promise<Caller> {
  const caller = await verify(bearerToken(request));
  // Bearer tokens never ride along cross-site, so state-changing GETs need no XSRF token (decision 0018).
  if (isUnsafeMethod(request.method)) request.server.xsrf.verify(request, caller.sessionId);
  // A customer view is read-only here, for every route at once and whatever the method, not only in the console.
  const config = request.routeOptions.config;
  if (caller.actingUserId && routeChangesState(request.method, config) && !config?.allowWhileUserSwitched)
    throw new AppError(403, 'READ_ONLY_VIEW', ADMIN_MESSAGES.readOnlyView);
  request.caller = caller;
  return caller;
}

/** onRequest hook (authentication comes before body validation) that requires a live access token (and, for state changes, the XSRF token) and puts the caller on the request (callerOf in caller.ts). */
export function requireSignedIn(verify: TokenVerifier) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    await authenticate(request, verify);
  };
}

/** onRequest hook for the customer area: the owner or an admin of the logged-in account. */
export function requireAccountAdmin(verify: TokenVerifier) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const caller = await authenticate(request, verify);
    if (!caller.accountId || !canUseCustomerArea(caller.role)) throw forbidden(MESSAGES.customerAreaOnly);
  };
}

/** onRequest hook for the admin area: a signed-in staff member whose role has `permission` ENABLED. */
export function requireStaff(verify: TokenVerifier, permission: string) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const caller = await authenticate(request, verify);
    if (!isSystemRole(caller.role) || permissionsFor(caller.role)[permission] !== 'ENABLED') throw forbidden();
  };
}

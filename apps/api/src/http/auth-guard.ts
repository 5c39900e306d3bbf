import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, isSystemRole } from '@kumo/contract';
import { forbidden, unauthorized } from '../errors.js';
import type { AccessClaims } from '../modules/auth/access-tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AccessClaims;
  }
}

export type TokenVerifier = (token: string) => Promise<AccessClaims>;

function bearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  const [scheme, token] = header.split(' ');
  if (scheme?.toLowerCase() !== 'bearer' || !token) throw unauthorized('TOKEN_MISSING', MESSAGES.notSignedIn);
  return token;
}

/** preHandler that requires a live access token and puts its claims on request.auth. */
export function requireSignedIn(verify: TokenVerifier) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    request.auth = await verify(bearerToken(request));
  };
}

/** preHandler for the admin area: a signed-in staff member. */
export function requireStaff(verify: TokenVerifier) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const claims = await verify(bearerToken(request));
    if (!isSystemRole(claims.role)) throw forbidden();
    request.auth = claims;
  };
}

/** The claims a guarded route can rely on. */
export function claimsOf(request: FastifyRequest): AccessClaims {
  if (!request.auth) throw unauthorized('TOKEN_MISSING', MESSAGES.notSignedIn);
  return request.auth;
}

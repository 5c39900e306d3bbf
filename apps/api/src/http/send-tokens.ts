import type { FastifyReply, FastifyRequest } from 'fastify';
import { HEADERS } from '@kumo/contract';

/** A new token pair and the session it belongs to, as any sign-in path issues it. */
export interface TokensToSend {
  jwtToken: string;
  refreshToken: string;
  sessionId: string;
}

/**
 * New tokens travel in response headers (spec section 7), never cached; the XSRF cookie is bound to their
 * session. Shared by every route that signs someone in (sign-in, refresh, switching, accepting an invitation).
 */
export function sendTokens(request: FastifyRequest, reply: FastifyReply, tokens: TokensToSend): void {
  reply.header(HEADERS.jwtToken, tokens.jwtToken).header(HEADERS.refreshToken, tokens.refreshToken).header('cache-control', 'no-store');
  request.server.xsrf.setCookie(request, reply, tokens.sessionId);
}

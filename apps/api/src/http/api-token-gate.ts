import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_TOKEN_LIMITS, API_TOKEN_MESSAGES, MESSAGES } from '@kumo/contract';
import { AppError, tooManyRequests } from '../errors.js';
import type { ApiTokenGrant } from './caller.js';

/** Counts one call of a token in the current minute's window: the calls so far and the milliseconds left in it. */
export type ApiTokenCallCounter = (tokenId: string) => Promise<{ current: number; ttl: number }>;

declare module 'fastify' {
  interface FastifyInstance {
    countApiTokenCall: ApiTokenCallCounter;
  }
}

/**
 * What a personal API token may do on this route, checked after the token itself: never what only a person may do,
 * nothing that changes state with a READ token, and at most `callsPerMinute` calls a minute per token.
 */
export async function admitApiToken(
  request: FastifyRequest,
  reply: FastifyReply,
  token: ApiTokenGrant,
  route: { personOnly: boolean; changesState: boolean },
): Promise<void> {
  if (route.personOnly) throw new AppError(403, 'TOKEN_NOT_ALLOWED', API_TOKEN_MESSAGES.personOnly);
  if (token.scope === 'READ' && route.changesState) throw new AppError(403, 'TOKEN_SCOPE', API_TOKEN_MESSAGES.scopeRefused);
  const { current, ttl } = await request.server.countApiTokenCall(token.tokenId);
  // The names and units the sign-in routes' limits already send: the limit, what is left, seconds until the window resets.
  const resetSeconds = Math.max(1, Math.ceil(ttl / 1000));
  reply.header('x-ratelimit-limit', String(API_TOKEN_LIMITS.callsPerMinute));
  reply.header('x-ratelimit-remaining', String(Math.max(0, API_TOKEN_LIMITS.callsPerMinute - current)));
  reply.header('x-ratelimit-reset', String(resetSeconds));
  if (current > API_TOKEN_LIMITS.callsPerMinute) {
    reply.header('retry-after', String(resetSeconds));
    throw tooManyRequests('RATE_LIMITED', MESSAGES.rateLimited);
  }
}

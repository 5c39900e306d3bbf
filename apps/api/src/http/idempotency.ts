import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { HEADERS, MESSAGES } from '@kumo/contract';
import { badRequest, conflict } from '../errors.js';
import type { IdempotencyStore } from './idempotency-store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A POST that creates or charges: an Idempotency-Key makes a retry answer the first answer again, doing nothing twice. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this request claimed, whose answer is kept once it is sent. */
    idempotencyClaim?: { scope: string; key: string };
  }
}

/** Route config of a POST that creates or charges (see `idempotent` above). */
export const idempotent = { idempotent: true } as const;

/** Stripe's rule: any string up to 255 characters; printable ASCII, since it travels in a header. */
const KEY = /^[\x21-\x7e][\x20-\x7e]{0,254}$/;
/** How long a request waits for another one with its key to be answered before it is told to try again. */
const WAIT_LIMIT_MS = 30_000;
const POLL_MS = 50;

/** The same value whatever the order of its object keys, so a body sent with its fields reordered is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const fingerprintOf = (request: FastifyRequest) =>
  createHash('sha256')
    .update(`${request.method} ${request.url}\n${canonical(request.body)}`)
    .digest('hex');

/** Keys are the caller's account's (a staff member's own outside any account). */
const scopeOf = (request: FastifyRequest) => {
  const caller = request.caller;
  return caller?.accountId ? `account:${caller.accountId}` : `user:${caller?.userId ?? 'anonymous'}`;
};

function replay(reply: FastifyReply, answer: { status: number; contentType: string | null; body: string }) {
  if (answer.contentType) reply.header('content-type', answer.contentType);
  return reply.code(answer.status).header('idempotent-replayed', 'true').send(answer.body);
}

/**
 * Runs before the handler of an `idempotent` route, after its guard and validation: without a key, nothing; with one,
 * it claims the key, or waits for the request that holds it and answers with its answer, or refuses another body.
 */
function idempotencyPreHandler(store: IdempotencyStore) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers[HEADERS.idempotencyKey];
    if (key === undefined) return;
    if (typeof key !== 'string' || !KEY.test(key)) {
      throw badRequest('VALIDATION_FAILED', MESSAGES.idempotencyKeyInvalid, { [HEADERS.idempotencyKey]: MESSAGES.idempotencyKeyInvalid });
    }
    const scope = scopeOf(request);
    const fingerprint = fingerprintOf(request);
    const giveUpAt = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const claim = await store.claim(scope, key, fingerprint);
      if (claim.kind === 'claimed') {
        request.idempotencyClaim = { scope, key };
        return;
      }
      if (claim.kind === 'answered') return replay(reply, claim.answer);
      if (claim.kind === 'other-request') throw conflict('IDEMPOTENCY_KEY_REUSED', MESSAGES.idempotencyKeyOtherRequest);
      if (Date.now() >= giveUpAt) throw conflict('IDEMPOTENCY_KEY_IN_USE', MESSAGES.idempotencyKeyInProgress);
      await sleep(POLL_MS);
    }
  };
}

/**
 * Idempotency-Key for the routes marked `idempotent`: one claim per caller's scope and key in PostgreSQL, so several
 * processes agree and concurrent requests do the work once. Registered before the routes (it adds to them as they are
 * declared) and before compression (it keeps the body as it was serialised).
 */
export function registerIdempotency(app: FastifyInstance, store: IdempotencyStore): void {
  const preHandler = idempotencyPreHandler(store);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.config?.idempotent) return;
    route.preHandler = [...[route.preHandler ?? []].flat(), preHandler];
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    // A failure on the server's side is not an answer to keep: the retry should do the work.
    if (reply.statusCode >= 500 || typeof payload !== 'string') await store.release(claim.scope, claim.key);
    else {
      const contentType = reply.getHeader('content-type');
      await store.answer(claim.scope, claim.key, {
        status: reply.statusCode,
        contentType: typeof contentType === 'string' ? contentType : null,
        body: payload,
      });
    }
    return payload;
  });
}

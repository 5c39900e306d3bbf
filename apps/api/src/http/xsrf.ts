import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@kumo/contract';
import { AppError } from '../errors.js';
import { hashesEqual, keyedHash } from '../lib/crypto.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isUnsafeMethod = (method: string) => UNSAFE_METHODS.has(method);

/**
 * Double-submit XSRF token bound to the session (OWASP's signed variant): a random nonce and an
 * HMAC of session id and nonce. The cookie is readable by the console, which echoes it in a header.
 */
export function createXsrf(secret: string) {
  const sign = (sessionId: string, nonce: string) => keyedHash(secret, `xsrf:${sessionId}`, nonce);

  function issue(sessionId: string): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${sign(sessionId, nonce)}`;
  }

  function isValid(token: string | undefined, sessionId: string): boolean {
    const [nonce, mac] = (token ?? '').split('.');
    return !!nonce && !!mac && hashesEqual(mac, sign(sessionId, nonce));
  }

  return {
    /** Sets a fresh token cookie for the session. */
    setCookie(request: FastifyRequest, reply: FastifyReply, sessionId: string): void {
      reply.setCookie(XSRF_COOKIE, issue(sessionId), {
        path: '/',
        sameSite: 'strict',
        secure: request.protocol === 'https',
        httpOnly: false,
      });
    },
    /** Re-issues the cookie unless the request already carries a valid one for this session. */
    ensureCookie(request: FastifyRequest, reply: FastifyReply, sessionId: string): void {
      if (!isValid(request.cookies[XSRF_COOKIE], sessionId)) this.setCookie(request, reply, sessionId);
    },
    /** For state-changing calls: header and cookie must match and belong to the caller's session. */
    verify(request: FastifyRequest, sessionId: string): void {
      const header = request.headers[XSRF_HEADER];
      const cookie = request.cookies[XSRF_COOKIE];
      if (typeof header !== 'string' || header !== cookie || !isValid(header, sessionId)) {
        throw new AppError(403, 'XSRF_INVALID', MESSAGES.xsrfInvalid);
      }
    },
  };
}
export type Xsrf = ReturnType<typeof createXsrf>;

declare module 'fastify' {
  interface FastifyInstance {
    xsrf: Xsrf;
  }
  interface FastifyContextConfig {
    /** Server-to-server endpoints (payment webhooks) that legitimately arrive from other sites. */
    allowCrossSite?: boolean;
  }
}

/** Refuses state-changing requests that a browser marks as coming from another site. */
export async function refuseCrossSite(request: FastifyRequest): Promise<void> {
  if (!isUnsafeMethod(request.method) || request.routeOptions.config?.allowCrossSite) return;
  const fetchSite = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const foreignOrigin = typeof origin === 'string' && origin !== 'null' && safeHost(origin) !== request.host;
  if (fetchSite === 'cross-site' || foreignOrigin || origin === 'null') {
    throw new AppError(403, 'CROSS_SITE', MESSAGES.crossSiteRefused);
  }
}

function safeHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

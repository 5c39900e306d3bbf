import { webcrypto } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { MESSAGES, ROLES, TOKENS, type Role } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { unauthorized } from '../../errors.js';
import type { Caller } from '../../http/caller.js';

const ALGORITHM = 'HS256';
const TOKEN_TYPE = 'access+jwt';
/** Verified tokens kept per process: some ten thousand people signed in at once, a few MiB. */
const VERIFIED_LIMIT = 10_000;

/** Short-lived signed access tokens: one allow-listed algorithm; iss, aud, exp and typ checked. */
export function createAccessTokens(secret: string, clock: Clock) {
  // A CryptoKey made once: jose would otherwise import the key on every call (a KeyObject it exports and imports again).
  const key = webcrypto.subtle.importKey('raw', Buffer.from(secret, 'utf8'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);

  /** `notAfter`: a session that ends by itself (a customer view) gets no token outliving it. */
  async function sign(claims: Caller, notAfter?: Date | null): Promise<string> {
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    const lifetimeEnd = nowSeconds + TOKENS.accessTokenMinutes * 60;
    const expires = notAfter ? Math.min(lifetimeEnd, Math.floor(notAfter.getTime() / 1000)) : lifetimeEnd;
    // The actor claim (RFC 8693) names the staff member behind a customer view.
    const switched = claims.actingUserId ? { act: { sub: claims.actingUserId }, userSwitched: true } : {};
    return new SignJWT({ sid: claims.sessionId, acc: claims.accountId, role: claims.role, ...switched })
      .setProtectedHeader({ alg: ALGORITHM, typ: TOKEN_TYPE })
      .setSubject(claims.userId)
      .setIssuer(TOKENS.issuer)
      .setAudience(TOKENS.audience)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(expires)
      .sign(await key);
  }

  /**
   * Tokens this process has verified, with their claims. A console sends one token with every call for its 15 minutes,
   * and checking its HMAC through WebCrypto cost a light read more than its database query did. Only a token whose
   * signature and claims passed is kept, under this process's one key; its expiry is checked again at every use.
   */
  const verified = new Map<string, { claims: Caller; exp: number }>();

  /** Remembers a verified token; the oldest go first past the limit. */
  function remember(token: string, claims: Caller, payload: { exp?: number; nbf?: number }): Caller {
    // Ours never carry nbf: one that does is checked in full every time, as jose checks it against the clock.
    if (payload.exp === undefined || payload.nbf !== undefined) return claims;
    if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value!);
    const frozen = Object.freeze(claims);
    verified.set(token, { claims: frozen, exp: payload.exp });
    return frozen;
  }

  async function verify(token: string): Promise<Caller> {
    const known = verified.get(token);
    if (known) {
      // jose's rule: expired once exp is at or before the current second.
      if (known.exp > Math.floor(clock.now().getTime() / 1000)) return known.claims;
      verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, await key, {
        algorithms: [ALGORITHM],
        issuer: TOKENS.issuer,
        audience: TOKENS.audience,
        typ: TOKEN_TYPE,
        currentDate: clock.now(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      const { sub, sid, acc, role, act, userSwitched } = payload;
      if (typeof sub !== 'string' || typeof sid !== 'string' || !ROLES.includes(role as Role)) {
        throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
      }
      const claims: Caller = { userId: sub, sessionId: sid, accountId: typeof acc === 'string' ? acc : null, role: role as Role };
      if (userSwitched === undefined && act === undefined) return remember(token, claims, payload);
      const actor = typeof act === 'object' && act !== null ? (act as { sub?: unknown }).sub : undefined;
      if (userSwitched !== true || typeof actor !== 'string') throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
      return remember(token, { ...claims, actingUserId: actor }, payload);
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized('TOKEN_EXPIRED', MESSAGES.jwtExpired);
      if (error instanceof errors.JOSEError) throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
      throw error;
    }
  }

  return { sign, verify };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;

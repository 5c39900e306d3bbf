import { webcrypto } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { MESSAGES, ROLES, TOKENS, type Role } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { unauthorized } from '../../errors.js';
import type { Caller } from '../../http/caller.js';

const ALGORITHM = 'HS256';
const TOKEN_TYPE = 'access+jwt';

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

  async function verify(token: string): Promise<Caller> {
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
      if (userSwitched === undefined && act === undefined) return claims;
      const actor = typeof act === 'object' && act !== null ? (act as { sub?: unknown }).sub : undefined;
      if (userSwitched !== true || typeof actor !== 'string') throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
      return { ...claims, actingUserId: actor };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized('TOKEN_EXPIRED', MESSAGES.jwtExpired);
      if (error instanceof errors.JOSEError) throw unauthorized('TOKEN_INVALID', MESSAGES.notSignedIn);
      throw error;
    }
  }

  return { sign, verify };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;

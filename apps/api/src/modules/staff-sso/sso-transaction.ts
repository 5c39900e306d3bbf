import { createHmac } from 'node:crypto';
import { Signer } from '@fastify/cookie';
import { z } from 'zod';

/** The server side of staff single sign-on; /oauth2/redirect and /oauth2/error are console pages. */
export const SSO_PATHS = {
  start: '/oauth2/authorization/azure',
  callback: '/oauth2/callback/azure',
  handOff: '/oauth2/redirect',
  error: '/oauth2/error',
} as const;

/** Where the transaction cookie is sent: the start and the callback, nothing else of the portal. */
export const SSO_COOKIE_PATH = '/oauth2/';

/** How long a browser may take at the identity provider before the attempt is void. */
export const TRANSACTION_TTL_MS = 10 * 60 * 1000;
/** openid-client's random state is base64url; anything else cannot be one of ours. */
export const STATE_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** Set when the console opened the sign-in as a pop-up to renew an expired session. */
export interface SsoFlags {
  sessionExpired: boolean;
  userSwitched: boolean;
}

const transactionSchema = z.object({
  state: z.string().regex(STATE_PATTERN),
  nonce: z.string().min(16).max(128),
  codeVerifier: z.string().min(43).max(128),
  flags: z.object({ sessionExpired: z.boolean(), userSwitched: z.boolean() }),
  expiresAt: z.number().int(),
});

/** One sign-in attempt: the checks its callback must match, the pop-up flags, and when it lapses. */
export type SsoTransaction = z.infer<typeof transactionSchema>;

/** The one cookie that holds the browser's open attempts. */
export const TRANSACTION_COOKIE = 'kumo_sso';
/**
 * Attempts kept at once: a tab and a renewal pop-up may both be under way, but each start replaces the
 * cookie, so a browser that starts sign-in again and again never grows a cookie per attempt (once a
 * Cookie header is too large, every request of the site fails with 431).
 */
export const MAX_OPEN_ATTEMPTS = 3;

/**
 * Keeps the browser's latest attempts in one signed cookie; a callback finds exactly the attempt it
 * answers by its state. The cookie is signed with a key derived from the server secret, so it cannot be forged.
 */
export function createTransactionCookies(secret: string) {
  const signer = new Signer(createHmac('sha256', secret).update('staff-sso:transaction-cookie').digest());
  const listSchema = z.array(transactionSchema).max(MAX_OPEN_ATTEMPTS);
  return {
    name: TRANSACTION_COOKIE,
    seal(transactions: SsoTransaction[]): string {
      return signer.sign(Buffer.from(JSON.stringify(transactions), 'utf8').toString('base64url'));
    },
    /** The attempts in a cookie value; none when it is missing, tampered with or malformed. */
    open(value: string | undefined): SsoTransaction[] {
      if (!value) return [];
      const unsigned = signer.unsign(value);
      if (!unsigned.valid || unsigned.value === null) return [];
      try {
        const parsed = listSchema.safeParse(JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')));
        return parsed.success ? parsed.data : [];
      } catch {
        return [];
      }
    },
    /** The attempts to keep once `started` begins: it, then the newest earlier ones that have not lapsed. */
    withStarted(earlier: SsoTransaction[], started: SsoTransaction, now: number): SsoTransaction[] {
      const alive = earlier.filter((transaction) => transaction.expiresAt > now && transaction.state !== started.state);
      return [started, ...alive].slice(0, MAX_OPEN_ATTEMPTS);
    },
  };
}

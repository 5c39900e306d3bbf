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

/** How long a browser may take at the identity provider before the attempt is void. */
export const TRANSACTION_TTL_MS = 10 * 60 * 1000;
const COOKIE_PREFIX = 'kumo_sso_';
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

/**
 * Keeps each attempt in its own signed cookie named after its state, so two attempts (a tab and a
 * pop-up) do not overwrite each other and a callback finds exactly the attempt it answers.
 * The cookie is signed with a key derived from the server secret, so it cannot be forged.
 */
export function createTransactionCookies(secret: string) {
  const signer = new Signer(createHmac('sha256', secret).update('staff-sso:transaction-cookie').digest());
  return {
    name: (state: string) => `${COOKIE_PREFIX}${state}`,
    seal(transaction: SsoTransaction): string {
      return signer.sign(Buffer.from(JSON.stringify(transaction), 'utf8').toString('base64url'));
    },
    /** The attempt in a cookie value, or null when it is missing, tampered with or malformed. */
    open(value: string | undefined): SsoTransaction | null {
      if (!value) return null;
      const unsigned = signer.unsign(value);
      if (!unsigned.valid || unsigned.value === null) return null;
      try {
        const parsed = transactionSchema.safeParse(JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}
export type TransactionCookies = ReturnType<typeof createTransactionCookies>;

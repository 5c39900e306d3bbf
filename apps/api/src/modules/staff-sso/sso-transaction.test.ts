import { describe, expect, it } from 'vitest';
import { createTransactionCookies, type SsoTransaction } from './sso-transaction.js';

const SECRET = 'a-server-secret-that-is-long-enough-for-hmac';
const TRANSACTION: SsoTransaction = {
  state: 'S'.repeat(43),
  nonce: 'N'.repeat(43),
  codeVerifier: 'V'.repeat(43),
  flags: { sessionExpired: true, userSwitched: false },
  expiresAt: 1_800_000_000_000,
};

describe('transaction cookies', () => {
  const cookies = createTransactionCookies(SECRET);

  it('round-trips an attempt', () => {
    const sealed = cookies.seal(TRANSACTION);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9+/]+$/);
    expect(cookies.open(sealed)).toEqual(TRANSACTION);
    expect(cookies.name(TRANSACTION.state)).toBe(`kumo_sso_${TRANSACTION.state}`);
  });

  it('refuses a changed payload, a changed signature and another secret', () => {
    const sealed = cookies.seal(TRANSACTION);
    const [payload, signature] = sealed.split('.') as [string, string];
    const changed = Buffer.from(JSON.stringify({ ...TRANSACTION, flags: { sessionExpired: true, userSwitched: true } })).toString(
      'base64url',
    );
    expect(cookies.open(`${changed}.${signature}`)).toBeNull();
    expect(cookies.open(`${payload}.${signature.slice(1)}A`)).toBeNull();
    expect(createTransactionCookies(`${SECRET}-other`).open(sealed)).toBeNull();
  });

  it('refuses what is missing or not an attempt', () => {
    const signer = createTransactionCookies(SECRET);
    expect(signer.open(undefined)).toBeNull();
    expect(signer.open('')).toBeNull();
    expect(signer.open('no-signature')).toBeNull();
    // Correctly signed, but not a transaction.
    const sealedOther = signer.seal({ ...TRANSACTION, state: 'short' });
    expect(signer.open(sealedOther)).toBeNull();
  });
});

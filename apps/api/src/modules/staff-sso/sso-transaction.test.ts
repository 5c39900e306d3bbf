import { describe, expect, it } from 'vitest';
import { MAX_OPEN_ATTEMPTS, createTransactionCookies, type SsoTransaction } from './sso-transaction.js';

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
    const sealed = cookies.seal([TRANSACTION]);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9+/]+$/);
    expect(cookies.open(sealed)).toEqual([TRANSACTION]);
    expect(cookies.name).toBe('kumo_sso');
  });

  it('refuses a changed payload, a changed signature and another secret', () => {
    const sealed = cookies.seal([TRANSACTION]);
    const [payload, signature] = sealed.split('.') as [string, string];
    const changed = Buffer.from(JSON.stringify([{ ...TRANSACTION, flags: { sessionExpired: true, userSwitched: true } }])).toString(
      'base64url',
    );
    expect(cookies.open(`${changed}.${signature}`)).toEqual([]);
    expect(cookies.open(`${payload}.${signature.slice(1)}A`)).toEqual([]);
    expect(createTransactionCookies(`${SECRET}-other`).open(sealed)).toEqual([]);
  });

  it('refuses what is missing or not an attempt', () => {
    const signer = createTransactionCookies(SECRET);
    expect(signer.open(undefined)).toEqual([]);
    expect(signer.open('')).toEqual([]);
    expect(signer.open('no-signature')).toEqual([]);
    // Correctly signed, but not a transaction.
    const sealedOther = signer.seal([{ ...TRANSACTION, state: 'short' }]);
    expect(signer.open(sealedOther)).toEqual([]);
  });

  it('keeps the newest attempts that have not lapsed, the started one first', () => {
    const attempt = (n: number, expiresAt = 1_800_000_000_000): SsoTransaction => ({
      ...TRANSACTION,
      state: `${'S'.repeat(40)}${n}00`,
      expiresAt,
    });
    let kept: SsoTransaction[] = [];
    for (let n = 0; n < 10; n++) kept = cookies.withStarted(kept, attempt(n), 1_700_000_000_000);
    expect(kept.map((transaction) => transaction.state)).toEqual([attempt(9), attempt(8), attempt(7)].map((a) => a.state));
    expect(kept).toHaveLength(MAX_OPEN_ATTEMPTS);
    const lapsed = attempt(1, 1_600_000_000_000);
    expect(cookies.withStarted([lapsed], attempt(2), 1_700_000_000_000)).toEqual([attempt(2)]);
  });
});

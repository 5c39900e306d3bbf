import { describe, expect, it } from 'vitest';
import { MINUTE } from '../../clock.js';
import { ManualClock } from '../../../test/support/manual-clock.js';
import { createAccessTokens } from './access-tokens.js';

const SECRET = 'a-test-secret-of-enough-length-for-hs256';
const CALLER = { userId: 'user-1', sessionId: 'session-1', accountId: 'account-1', role: 'ACCOUNT_OWNER' } as const;

/** The error code a refused verification answers with. */
const refusal = (verifying: Promise<unknown>) =>
  verifying.then(
    () => 'accepted',
    (error: { code?: string }) => error.code,
  );

describe('access tokens verified again', () => {
  it('give the same claims every time, and expire at the same second as on their first check', async () => {
    const clock = new ManualClock('2026-03-10T09:00:00Z');
    const tokens = createAccessTokens(SECRET, clock);
    const token = await tokens.sign(CALLER);
    const first = await tokens.verify(token);
    expect(first).toEqual(CALLER);
    expect(await tokens.verify(token)).toEqual(CALLER);
    // A caller cannot change what the next request of the same token gets.
    expect(() => Object.assign(first, { role: 'PLATFORM_ADMIN' })).toThrow(TypeError);

    clock.advance(15 * MINUTE - 1000);
    expect(await tokens.verify(token)).toEqual(CALLER);
    clock.advance(1000);
    expect(await refusal(tokens.verify(token))).toBe('TOKEN_EXPIRED');
    // Also for a process that never saw it before.
    expect(await refusal(createAccessTokens(SECRET, clock).verify(token))).toBe('TOKEN_EXPIRED');
  });

  it('refuse a token signed with another key or altered, however often a valid one was seen', async () => {
    const clock = new ManualClock('2026-03-10T09:00:00Z');
    const tokens = createAccessTokens(SECRET, clock);
    const token = await tokens.sign(CALLER);
    await tokens.verify(token);
    const foreign = await createAccessTokens('another-secret-of-enough-length-for-hs256', clock).sign(CALLER);
    expect(await refusal(tokens.verify(foreign))).toBe('TOKEN_INVALID');
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()), role: 'ACCOUNT_ADMIN' }),
    );
    expect(await refusal(tokens.verify(`${header}.${payload.toString('base64url')}.${signature}`))).toBe('TOKEN_INVALID');
  });
});

import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { IdentityError, type IdentityProvider, type SignInChecks } from '../../adapters/identity/index.js';
import { forbidden } from '../../errors.js';
import { ManualClock } from '../../../test/support/manual-clock.js';
import { MINUTE } from '../../clock.js';
import { createStaffSsoService, errorLocation, handOffLocation } from './staff-sso.service.js';
import type { SsoTransaction } from './sso-transaction.js';

const CHECKS: SignInChecks = { state: 's'.repeat(43), nonce: 'n'.repeat(43), codeVerifier: 'v'.repeat(43) };
const TOKENS = { jwtToken: 'header.payload.signature', refreshToken: 'refresh-token', sessionId: 'session', role: 'SYSTEM_ADMIN' as const };
const CALLBACK = new URL('https://portal.example.com/oauth2/callback/azure?code=c&state=s');
const NO_FLAGS = { sessionExpired: false, userSwitched: false };

function fakeIdentity(overrides: Partial<IdentityProvider> = {}): IdentityProvider {
  return {
    beginSignIn: async () => ({ authorizationUrl: new URL('https://idp.example.com/authorize?x=1'), checks: CHECKS }),
    completeSignIn: async () => ({ email: 'staff@kumo.cloud', subject: 'sub' }),
    ...overrides,
  };
}

function service(identity: IdentityProvider | undefined, signInStaff = async (_email: string) => TOKENS, clock = new ManualClock()) {
  return { sso: createStaffSsoService({ identity, auth: { signInStaff }, clock }), clock };
}

const transaction = (clock: ManualClock, flags = NO_FLAGS): SsoTransaction => ({
  ...CHECKS,
  flags,
  expiresAt: clock.now().getTime() + 10 * MINUTE,
});
const messageOf = (location: string) => new URL(location, 'https://portal.example.com').searchParams.get('error');

describe('staff single sign-on service', () => {
  it('starts at the provider and keeps the checks, the flags and a deadline ten minutes out', async () => {
    const { sso, clock } = service(fakeIdentity());
    const flags = { sessionExpired: true, userSwitched: true };
    const started = await sso.start(flags);
    expect(started.location).toBe('https://idp.example.com/authorize?x=1');
    expect(started.transaction).toEqual({ ...CHECKS, flags, expiresAt: clock.now().getTime() + 10 * MINUTE });
    expect(started.refused).toBeUndefined();
  });

  it('says single sign-on is not configured when there is no provider', async () => {
    const { sso, clock } = service(undefined);
    expect(messageOf((await sso.start(NO_FLAGS)).location)).toBe(MESSAGES.ssoNotConfigured);
    expect(messageOf((await sso.finish(CALLBACK, transaction(clock))).location)).toBe(MESSAGES.ssoNotConfigured);
  });

  it('says the provider cannot be reached when discovery fails', async () => {
    const { sso } = service(
      fakeIdentity({
        beginSignIn: async () => {
          throw new IdentityError('unavailable', 'connection refused');
        },
      }),
    );
    const started = await sso.start(NO_FLAGS);
    expect(messageOf(started.location)).toBe(MESSAGES.ssoUnavailable);
    expect(started.transaction).toBeUndefined();
    expect(started.refused?.error).toBeInstanceOf(IdentityError);
  });

  it('hands a staff member the tokens, with the flags of a pop-up renewal', async () => {
    const seen: string[] = [];
    const { sso, clock } = service(fakeIdentity(), async (email) => {
      seen.push(email);
      return TOKENS;
    });
    const done = await sso.finish(CALLBACK, transaction(clock, { sessionExpired: true, userSwitched: false }));
    expect(done.refused).toBeUndefined();
    expect(done.location).toBe(handOffLocation(TOKENS, { sessionExpired: true, userSwitched: false }));
    expect(seen).toEqual(['staff@kumo.cloud']);
  });

  it.each([
    ['cancelled', MESSAGES.ssoCancelled],
    ['rejected', MESSAGES.ssoFailed],
    ['no-email', MESSAGES.ssoNoEmail],
    ['unavailable', MESSAGES.ssoUnavailable],
  ] as const)('turns a %s answer into a readable message', async (failure, message) => {
    const { sso, clock } = service(
      fakeIdentity({
        completeSignIn: async () => {
          throw new IdentityError(failure, 'detail');
        },
      }),
    );
    expect(messageOf((await sso.finish(CALLBACK, transaction(clock))).location)).toBe(message);
  });

  it('passes on the refusal of an identity that is not staff', async () => {
    const { sso, clock } = service(fakeIdentity(), async () => {
      throw forbidden(MESSAGES.notStaff);
    });
    expect(messageOf((await sso.finish(CALLBACK, transaction(clock))).location)).toBe(MESSAGES.notStaff);
  });

  it('hides an unexpected failure behind a generic message', async () => {
    const { sso, clock } = service(fakeIdentity(), async () => {
      throw new Error('connection to the database lost');
    });
    const done = await sso.finish(CALLBACK, transaction(clock));
    expect(messageOf(done.location)).toBe(MESSAGES.ssoFailed);
    expect(done.location).not.toContain('database');
    expect(done.refused?.error).toBeInstanceOf(Error);
  });

  it('refuses a missing or lapsed attempt without asking the provider', async () => {
    let asked = 0;
    const { sso, clock } = service(
      fakeIdentity({
        completeSignIn: async () => {
          asked += 1;
          return { email: 'staff@kumo.cloud', subject: 'sub' };
        },
      }),
    );
    expect(messageOf((await sso.finish(CALLBACK, null)).location)).toBe(MESSAGES.ssoExpired);
    const lapsed = transaction(clock);
    clock.advance(10 * MINUTE);
    expect(messageOf((await sso.finish(CALLBACK, lapsed)).location)).toBe(MESSAGES.ssoExpired);
    expect(asked).toBe(0);
  });
});

describe('console locations', () => {
  it('encodes the tokens as URL-safe base64 of {"data":{"jwt_token","refresh_token"}}', () => {
    const tokens = { jwtToken: 'a.b.c', refreshToken: '>?>?>?~~' };
    const location = new URL(handOffLocation(tokens, NO_FLAGS), 'https://portal.example.com');
    expect(location.pathname).toBe('/oauth2/redirect');
    const token = location.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))).toEqual({
      data: { jwt_token: 'a.b.c', refresh_token: '>?>?>?~~' },
    });
  });

  it('adds isSessionExpired and isUserSwitched only for a pop-up renewal', () => {
    const tokens = { jwtToken: 'j', refreshToken: 'r' };
    expect(handOffLocation(tokens, { sessionExpired: false, userSwitched: true })).not.toContain('isSessionExpired');
    expect(handOffLocation(tokens, { sessionExpired: true, userSwitched: true })).toMatch(/&isSessionExpired=true&isUserSwitched=true$/);
    expect(handOffLocation(tokens, { sessionExpired: true, userSwitched: false })).toMatch(/&isSessionExpired=true&isUserSwitched=false$/);
  });

  it('puts the message in the error page query', () => {
    expect(errorLocation('Nope & no.')).toBe('/oauth2/error?error=Nope+%26+no.');
  });
});

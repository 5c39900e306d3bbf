import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { errorCode, errorDetail, signUp, startTestApp, type TestContext } from '../../test/support/harness.js';

describe('XSRF and cross-site protection', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp('embedded');
  });
  afterAll(() => ctx.close());

  async function signedIn(email: string) {
    const register = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { email_id: email, user_name: 'Xena Xsrf' },
    });
    expect(register.statusCode).toBe(200);
    const mail = (await ctx.services.mail.listRecent(10)).find((row) => row.toAddress === email)!;
    const otp = mail.textBody.match(/^ {4}(\d{6})/m)![1];
    const done = await ctx.app.inject({ method: 'POST', url: '/api/user/authenticate', payload: { email_id: email, otp } });
    const cookie = done.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
    expect(cookie.httpOnly).toBeFalsy();
    expect(cookie.sameSite).toBe('Strict');
    return { jwt: String(done.headers.jwt_token), xsrf: cookie.value };
  }

  const logout = (jwt: string, headers: Record<string, string>) =>
    ctx.app.inject({ method: 'POST', url: '/api/user/logout', payload: {}, headers: { authorization: `Bearer ${jwt}`, ...headers } });

  it('refuses a state-changing call without the token, with a mismatch, or with another session’s token', async () => {
    const first = await signedIn('xsrf.one@example.com');
    const second = await signedIn('xsrf.two@example.com');
    const missing = await logout(first.jwt, {});
    expect(missing.statusCode).toBe(403);
    expect(missing.json().errorDetails).toEqual(errorDetail('XSRF_INVALID', MESSAGES.xsrfInvalid));
    expect((await logout(first.jwt, { cookie: `XSRF-TOKEN=${first.xsrf}`, 'x-xsrf-token': 'other' })).statusCode).toBe(403);
    expect((await logout(first.jwt, { cookie: `XSRF-TOKEN=${second.xsrf}`, 'x-xsrf-token': second.xsrf })).statusCode).toBe(403);
    expect((await logout(first.jwt, { cookie: `XSRF-TOKEN=${first.xsrf}`, 'x-xsrf-token': first.xsrf })).statusCode).toBe(200);
  });

  it('re-issues the cookie on GET /api/user/detail when it is missing', async () => {
    const tokens = await signUp(ctx, 'xsrf.three@example.com');
    const detail = await ctx.app.inject({ url: '/api/user/detail', headers: { authorization: `Bearer ${tokens.jwt}` } });
    expect(detail.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it('refuses state-changing calls a browser marks as cross-site, even unauthenticated ones', async () => {
    const fromElsewhere = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email_id: 'a@example.com' },
      headers: { origin: 'https://evil.example' },
    });
    expect(fromElsewhere.statusCode).toBe(403);
    expect(errorCode(fromElsewhere)).toBe('CROSS_SITE');
    const fetchSite = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email_id: 'a@example.com' },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(fetchSite.statusCode).toBe(403);
    const sameOrigin = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { email_id: 'a@example.com' },
      headers: { origin: 'http://localhost:8080', host: 'localhost:8080', 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.statusCode).toBe(404);
    expect((await ctx.app.inject({ url: '/healthz', headers: { origin: 'https://evil.example' } })).statusCode).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { TestBrowser, decodeHandOff, startSsoApp, type SsoTestContext } from '../../../test/support/staff-sso.js';
import { SSO_PATHS } from './sso-transaction.js';
import { errorOf, ssoSteps } from '../../../test/support/staff-sso-steps.js';

const kinds = await databaseKinds();

const STAFF = 'staff@kumo.cloud';

describe.each(kinds)('staff single sign-on callbacks and console pages on %s', (kind) => {
  let ctx: SsoTestContext;
  beforeAll(async () => {
    ctx = await startSsoApp(kind);
  });
  afterAll(() => ctx.close());
  const { signInAs, callbackFor } = ssoSteps(() => ctx);

  describe('a callback that cannot be trusted', () => {
    it('is refused when its state is forged, and the real attempt is not spent', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      const callback = await callbackFor(STAFF, browser);
      const forged = new URL(callback);
      forged.searchParams.set('state', 'A'.repeat(43));
      expect(errorOf(await browser.follow(forged.href))).toBe(MESSAGES.ssoExpired);
      expect((await browser.follow(callback.href)).url.pathname).toBe(SSO_PATHS.handOff);
    });

    it('is refused when its cookie was tampered with', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      const callback = await callbackFor(STAFF, browser);
      const [name, cookie] = [...browser.cookies.entries()].find(([cookieName]) => cookieName === 'kumo_sso')!;
      const [payload, signature] = [
        cookie.value.slice(0, cookie.value.lastIndexOf('.')),
        cookie.value.slice(cookie.value.lastIndexOf('.') + 1),
      ];
      const attempts = JSON.parse(Buffer.from(decodeURIComponent(payload), 'base64url').toString('utf8'));
      attempts[0].flags.userSwitched = true;
      browser.cookies.set(name, { ...cookie, value: `${Buffer.from(JSON.stringify(attempts)).toString('base64url')}.${signature}` });
      expect(errorOf(await browser.follow(callback.href))).toBe(MESSAGES.ssoExpired);
    });

    it('is refused without the browser that started it (no cookie)', async () => {
      const callback = await callbackFor(STAFF);
      expect(errorOf(await new TestBrowser(ctx.baseUrl).follow(callback.href))).toBe(MESSAGES.ssoExpired);
    });

    it('is refused when replayed: the cookie is cleared and the code is single-use', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      const callback = await callbackFor(STAFF, browser);
      const saved = new Map(browser.cookies);
      const first = await browser.follow(callback.href);
      expect(first.url.pathname).toBe(SSO_PATHS.handOff);
      expect([...browser.cookies.keys()].filter((name) => name.startsWith('kumo_sso'))).toEqual([]);

      // The same browser again: its attempt is gone.
      expect(errorOf(await browser.follow(callback.href))).toBe(MESSAGES.ssoExpired);
      // An attacker who kept the cookie too: the provider refuses the used code.
      const replaying = new TestBrowser(ctx.baseUrl);
      for (const [name, cookie] of saved) replaying.cookies.set(name, cookie);
      expect(errorOf(await replaying.follow(callback.href))).toBe(MESSAGES.ssoFailed);
    });

    it('keeps one cookie however often sign-in is started, and the latest attempt still completes', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      for (let i = 0; i < 60; i++) expect((await browser.request(SSO_PATHS.start)).status).toBe(302);
      expect([...browser.cookies.keys()].filter((name) => name.startsWith('kumo_sso'))).toEqual(['kumo_sso']);
      const header = browser.cookieHeaderFor(new URL(SSO_PATHS.callback, ctx.baseUrl));
      expect(header.length).toBeLessThan(2048);
      expect((await signInAs(STAFF, SSO_PATHS.start, browser)).url.pathname).toBe(SSO_PATHS.handOff);
    });

    it('lets a tab and a pop-up each finish their own attempt', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      const tab = await callbackFor(STAFF, browser);
      const popUp = await callbackFor(STAFF, browser);
      expect((await browser.follow(popUp.href)).url.pathname).toBe(SSO_PATHS.handOff);
      expect((await browser.follow(tab.href)).url.pathname).toBe(SSO_PATHS.handOff);
    });

    it('is refused after the attempt lapsed', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      const callback = await callbackFor(STAFF, browser);
      ctx.clock.advance(11 * MINUTE);
      try {
        expect(errorOf(await browser.follow(callback.href))).toBe(MESSAGES.ssoExpired);
      } finally {
        ctx.clock.advance(-11 * MINUTE);
      }
    });

    it.each([
      ['no parameters', ''],
      ['a state that cannot be ours', '?state=%3Cscript%3E&code=x'],
      ['an error without a state', '?error=access_denied&error_description=nope'],
      ['a code without a state', '?code=abc'],
      ['unknown parameters', '?foo=bar&session_state=x'],
    ])('answers %s with a redirect to the error page, never a 500', async (_name, query) => {
      const response = await new TestBrowser(ctx.baseUrl).request(`${SSO_PATHS.callback}${query}`);
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!, ctx.baseUrl);
      expect(location.pathname).toBe(SSO_PATHS.error);
      expect(location.searchParams.get('error')).toBe(MESSAGES.ssoExpired);
    });

    it('answers bad input with the error shape', async () => {
      const response = await ctx.app.inject({ url: `${SSO_PATHS.callback}?state=${'x'.repeat(600)}` });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ errorDetails: { error_code: 'VALIDATION_FAILED' } });
    });
  });

  describe('the console pages around it', () => {
    it('serves /oauth2/redirect and /oauth2/error as console pages and keeps other /oauth2 paths on the server', async () => {
      for (const path of ['/oauth2/redirect?token=abc', '/oauth2/error?error=x', '/oauth2/redirect/']) {
        const response = await ctx.app.inject({ url: path });
        expect(response.statusCode, path).toBe(200);
        expect(response.body, path).toContain('<div id="root">');
      }
      const unknown = await ctx.app.inject({ url: '/oauth2/authorization/google' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().errorDetails.error_code).toBe('NOT_FOUND');
    });

    it('documents the two server routes in the OpenAPI document and keeps the provider out of it', async () => {
      const response = await ctx.app.inject({ url: '/api/openapi.json' });
      expect(response.statusCode).toBe(200);
      const paths = Object.keys(response.json().paths as object);
      expect(paths).toEqual(expect.arrayContaining([SSO_PATHS.start, SSO_PATHS.callback]));
      expect(paths.filter((path) => path.startsWith('/dev/oidc'))).toEqual([]);
    });

    it('never writes the hand-off token or the authorization code to the log', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      const callback = await callbackFor(STAFF, browser);
      const landing = await browser.follow(callback.href);
      const page = await browser.request(landing.url.href);
      expect(page.status).toBe(200);
      const { jwt_token, refresh_token } = decodeHandOff(landing.url);
      const logs = ctx.logs.join('');
      expect(logs).toContain('/oauth2/redirect?token=[redacted]');
      for (const secret of [landing.url.searchParams.get('token')!, jwt_token, refresh_token, callback.searchParams.get('code')!]) {
        expect(logs).not.toContain(secret);
      }
    });
  });

  it('logged no server error along the way', () => {
    const failures = ctx.logs.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 50);
    expect(failures).toEqual([]);
  });
});

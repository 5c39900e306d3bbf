import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { TestBrowser, decodeHandOff, startSsoApp, type Landing, type SsoTestContext } from '../../../test/support/staff-sso.js';
import { SSO_PATHS } from './sso-transaction.js';

const kinds = await databaseKinds();

const STAFF = 'staff@kumo.cloud';
const CUSTOMER = 'owner@demo.kumo.cloud';

/** The sign-in page's form: where it posts and where Cancel posts. */
function formActions(html: string): { action: string; cancel: string } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const cancel = /formaction="([^"]+)"/.exec(html)?.[1];
  if (!action || !cancel) throw new Error(`no sign-in form in:\n${html}`);
  return { action: action.replace(/&amp;/g, '&'), cancel: cancel.replace(/&amp;/g, '&') };
}

const errorOf = (landing: Landing) => {
  expect(landing.url.pathname).toBe(SSO_PATHS.error);
  return landing.url.searchParams.get('error');
};

describe.each(kinds)('staff single sign-on on %s', (kind) => {
  let ctx: SsoTestContext;
  beforeAll(async () => {
    ctx = await startSsoApp(kind);
  });
  afterAll(() => ctx.close());

  /** Starts a sign-in and stops on the provider's sign-in page. */
  async function reachSignInPage(browser: TestBrowser, start: string = SSO_PATHS.start): Promise<{ landing: Landing; html: string }> {
    const landing = await browser.follow(start);
    expect(landing.response.status).toBe(200);
    expect(landing.url.pathname).toMatch(/^\/dev\/oidc\/interaction\/[^/]+$/);
    return { landing, html: await landing.response.text() };
  }

  /** The whole flow as a browser walks it, up to the console page it ends on. */
  async function signInAs(email: string, start: string = SSO_PATHS.start, browser = new TestBrowser(ctx.baseUrl)): Promise<Landing> {
    const { html } = await reachSignInPage(browser, start);
    return browser.follow(formActions(html).action, { form: { email } });
  }

  /** Signs in at the provider but stops on the portal's callback, before it is called. */
  async function callbackFor(email: string, browser = new TestBrowser(ctx.baseUrl)): Promise<URL> {
    const { html } = await reachSignInPage(browser);
    let response = await browser.request(formActions(html).action, { form: { email } });
    let location = new URL(response.headers.get('location')!, ctx.baseUrl);
    while (location.pathname !== SSO_PATHS.callback) {
      response = await browser.request(location.href);
      location = new URL(response.headers.get('location')!, location);
    }
    return location;
  }

  describe('a staff member', () => {
    it('signs in: the hand-off token holds a session that works on the API', async () => {
      const landing = await signInAs(STAFF);
      expect(landing.url.pathname).toBe(SSO_PATHS.handOff);
      expect([...landing.url.searchParams.keys()]).toEqual(['token']);
      const { jwt_token, refresh_token } = decodeHandOff(landing.url);

      const detail = await ctx.app.inject({ url: '/api/user/detail', headers: { authorization: `Bearer ${jwt_token}` } });
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toMatchObject({ emailId: STAFF, role: 'SYSTEM_ADMIN' });

      const refreshed = await ctx.app.inject({ method: 'POST', url: '/api/user/refresh-token', payload: { refresh_token } });
      expect(refreshed.statusCode).toBe(200);
    });

    it('is sent to the provider with PKCE (S256), state and nonce, the attempt kept in a signed HttpOnly Lax cookie', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      const start = await browser.request(SSO_PATHS.start);
      expect(start.status).toBe(302);
      expect(start.headers.get('cache-control')).toBe('no-store');
      const authorize = new URL(start.headers.get('location')!);
      expect(authorize.origin + authorize.pathname).toBe(`${ctx.baseUrl}/dev/oidc/auth`);
      const params = Object.fromEntries(authorize.searchParams);
      expect(params).toMatchObject({
        response_type: 'code',
        client_id: 'kumo-portal',
        redirect_uri: `${ctx.baseUrl}${SSO_PATHS.callback}`,
        scope: 'openid email profile',
        code_challenge_method: 'S256',
      });
      expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const [cookie] = browser.setCookieHeaders;
      expect(cookie).toMatch(/^kumo_sso=/);
      expect(cookie).toContain('Path=/oauth2/;');
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).toContain('Max-Age=600');
      expect(cookie).not.toContain('Secure');
      // Nothing secret in clear text: not the PKCE verifier's challenge, nor the nonce as is.
      expect(cookie).not.toContain(params.nonce);
    });

    it('is asked who they are on every sign-in: the provider does not silently reuse the last identity', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      expect((await signInAs(STAFF, SSO_PATHS.start, browser)).url.pathname).toBe(SSO_PATHS.handOff);
      await reachSignInPage(browser);
    });

    it('comes back to a pop-up with the renewal flags', async () => {
      const switched = await signInAs(STAFF, `${SSO_PATHS.start}?isSessionExpired=true&isUserSwitched=true`);
      expect(switched.url.pathname).toBe(SSO_PATHS.handOff);
      expect(switched.url.searchParams.get('isSessionExpired')).toBe('true');
      expect(switched.url.searchParams.get('isUserSwitched')).toBe('true');
      expect(decodeHandOff(switched.url).jwt_token.split('.')).toHaveLength(3);

      const notSwitched = await signInAs(STAFF, `${SSO_PATHS.start}?isSessionExpired=true`);
      expect(notSwitched.url.searchParams.get('isUserSwitched')).toBe('false');

      const plain = await signInAs(STAFF, `${SSO_PATHS.start}?isSessionExpired=false&isUserSwitched=true`);
      expect([...plain.url.searchParams.keys()]).toEqual(['token']);
    });
  });

  describe('other identities', () => {
    it('refuses a customer: the console shows why', async () => {
      expect(errorOf(await signInAs(CUSTOMER))).toBe(MESSAGES.notStaff);
    });

    it('refuses an identity the portal does not know', async () => {
      expect(errorOf(await signInAs(`stranger.${kind}@example.com`))).toBe(MESSAGES.notStaff);
    });

    it('recognises a staff member whose provider writes the e-mail in another case', async () => {
      const landing = await signInAs('Staff@Kumo.Cloud');
      expect(landing.url.pathname).toBe(SSO_PATHS.handOff);
    });
  });

  describe('the provider', () => {
    it('serves its sign-in page under the portal CSP, without scripts and posting only to itself', async () => {
      const { landing, html } = await reachSignInPage(new TestBrowser(ctx.baseUrl));
      const csp = landing.response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("form-action 'self'");
      expect(landing.response.headers.get('cache-control')).toBe('no-store');
      // Under no-referrer a browser would post the form with Origin: null, which the portal refuses.
      expect(landing.response.headers.get('referrer-policy')).toBe('same-origin');
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/https?:\/\//);
      const { action, cancel } = formActions(html);
      expect(action).toBe(landing.url.pathname);
      expect(cancel).toBe(`${landing.url.pathname}/abort`);
      expect(html).toContain('staff@kumo.cloud');
    });

    it('asks again for an address that is not an e-mail', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      const { html } = await reachSignInPage(browser);
      const again = await browser.request(formActions(html).action, { form: { email: 'not an e-mail' } });
      expect(again.status).toBe(400);
      const page = await again.text();
      expect(page).toContain(MESSAGES.emailInvalid);
      expect(page).toContain('value="not an e-mail"');
    });

    it('ends a cancelled sign-in on the console with a message', async () => {
      const browser = new TestBrowser(ctx.baseUrl);
      const { html } = await reachSignInPage(browser);
      expect(errorOf(await browser.follow(formActions(html).cancel, { form: {} }))).toBe(MESSAGES.ssoCancelled);
    });

    it('shows an expired page, not an error dump, for a sign-in page without its cookie', async () => {
      const { landing } = await reachSignInPage(new TestBrowser(ctx.baseUrl));
      const stranger = await new TestBrowser(ctx.baseUrl).request(landing.url.pathname);
      expect(stranger.status).toBe(400);
      const page = await stranger.text();
      expect(page).toContain('This sign-in has expired');
      expect(page).toContain(`${ctx.baseUrl}/admin/login`);
    });

    it('publishes its discovery document under its own path', async () => {
      const response = await fetch(`${ctx.baseUrl}/dev/oidc/.well-known/openid-configuration`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        issuer: `${ctx.baseUrl}/dev/oidc`,
        authorization_endpoint: `${ctx.baseUrl}/dev/oidc/auth`,
        code_challenge_methods_supported: ['S256'],
      });
    });

    it('keeps its endpoints on the issuer when reached by another name (a proxy, the API port)', async () => {
      const response = await ctx.app.inject({
        url: '/dev/oidc/.well-known/openid-configuration',
        headers: { host: 'api.internal:9999', 'x-forwarded-host': 'elsewhere.example.com' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        authorization_endpoint: `${ctx.baseUrl}/dev/oidc/auth`,
        token_endpoint: `${ctx.baseUrl}/dev/oidc/token`,
      });
    });
  });

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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { databaseKinds } from '../../../test/support/databases.js';
import { TestBrowser, decodeHandOff, startSsoApp, type SsoTestContext } from '../../../test/support/staff-sso.js';
import { SSO_PATHS } from './sso-transaction.js';
import { errorOf, formActions, ssoSteps } from '../../../test/support/staff-sso-steps.js';

const kinds = await databaseKinds();

const STAFF = 'staff@kumo.cloud';
const CUSTOMER = 'owner@demo.kumo.cloud';

describe.each(kinds)('staff single sign-on on %s', (kind) => {
  let ctx: SsoTestContext;
  beforeAll(async () => {
    ctx = await startSsoApp(kind);
  });
  afterAll(() => ctx.close());
  const { reachSignInPage, signInAs } = ssoSteps(() => ctx);

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

  it('logged no server error along the way', () => {
    const failures = ctx.logs.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 50);
    expect(failures).toEqual([]);
  });
});

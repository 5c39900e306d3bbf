import { expect } from 'vitest';
import { SSO_PATHS } from '../../src/modules/staff-sso/sso-transaction.js';
import { TestBrowser, type Landing, type SsoTestContext } from './staff-sso.js';

/** The sign-in page's form: where it posts and where Cancel posts. */
export function formActions(html: string): { action: string; cancel: string } {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const cancel = /formaction="([^"]+)"/.exec(html)?.[1];
  if (!action || !cancel) throw new Error(`no sign-in form in:\n${html}`);
  return { action: action.replace(/&amp;/g, '&'), cancel: cancel.replace(/&amp;/g, '&') };
}

export const errorOf = (landing: Landing) => {
  expect(landing.url.pathname).toBe(SSO_PATHS.error);
  return landing.url.searchParams.get('error');
};

/** A browser's walks through the sign-in; `context` reads the suite's portal once it is started. */
export function ssoSteps(context: () => SsoTestContext) {
  /** Starts a sign-in and stops on the provider's sign-in page. */
  async function reachSignInPage(browser: TestBrowser, start: string = SSO_PATHS.start): Promise<{ landing: Landing; html: string }> {
    const landing = await browser.follow(start);
    expect(landing.response.status).toBe(200);
    expect(landing.url.pathname).toMatch(/^\/dev\/oidc\/interaction\/[^/]+$/);
    return { landing, html: await landing.response.text() };
  }

  /** The whole flow as a browser walks it, up to the console page it ends on. */
  async function signInAs(email: string, start: string = SSO_PATHS.start, browser = new TestBrowser(context().baseUrl)): Promise<Landing> {
    const { html } = await reachSignInPage(browser, start);
    return browser.follow(formActions(html).action, { form: { email } });
  }

  /** Signs in at the provider but stops on the portal's callback, before it is called. */
  async function callbackFor(email: string, browser = new TestBrowser(context().baseUrl)): Promise<URL> {
    const { baseUrl } = context();
    const { html } = await reachSignInPage(browser);
    let response = await browser.request(formActions(html).action, { form: { email } });
    let location = new URL(response.headers.get('location')!, baseUrl);
    while (location.pathname !== SSO_PATHS.callback) {
      response = await browser.request(location.href);
      location = new URL(response.headers.get('location')!, location);
    }
    return location;
  }

  return { reachSignInPage, signInAs, callbackFor };
}

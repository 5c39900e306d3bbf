import { expect, test, type Page } from '@playwright/test';
import { MESSAGES } from '@kumo/contract';

/** Content-Security-Policy violations the browser reports on any page of the flow. */
function watchCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** From the admin login, through the single sign-on button, to the development provider's sign-in page. */
async function startSingleSignOn(page: Page): Promise<void> {
  await page.goto('/admin/login');
  await expect(page).toHaveTitle('Admin - Login | Kumo Cloud');
  await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
  await expect(page).toHaveURL(/\/dev\/oidc\/interaction\/[^/]+$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

async function signInAtProvider(page: Page, email: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a staff member signs in with single sign-on and lands on the customers list', async ({ page }) => {
  const violations = watchCspViolations(page);
  await startSingleSignOn(page);
  await page.screenshot({ path: 'test-results/screens/sso-provider-sign-in.png' });
  await signInAtProvider(page, 'staff@kumo.cloud');

  // The customers list, which then selects its first customer.
  await expect(page).toHaveURL(/\/admin\/customers(\/[0-9a-f-]{36})?$/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
  const stored = await page.evaluate(() => ({
    jwtToken: localStorage.getItem('jwtToken'),
    refreshToken: localStorage.getItem('refreshToken'),
    userInfo: JSON.parse(localStorage.getItem('userInfo') ?? 'null') as { emailId: string; role: string } | null,
  }));
  expect(stored.jwtToken?.split('.')).toHaveLength(3);
  expect(stored.refreshToken).toBeTruthy();
  expect(stored.userInfo).toMatchObject({ emailId: 'staff@kumo.cloud', role: 'SYSTEM_ADMIN' });
  // The hand-off URL with the tokens is replaced, not kept in history.
  await page.goBack();
  await expect(page).not.toHaveURL(/token=/);
  expect(violations).toEqual([]);
});

test('an identity that is not staff ends on the admin login with the reason', async ({ page }) => {
  const violations = watchCspViolations(page);
  await startSingleSignOn(page);
  await signInAtProvider(page, `stranger.${Date.now()}@example.com`);

  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole('alert')).toHaveText(MESSAGES.notStaff);
  expect(await page.evaluate(() => localStorage.getItem('jwtToken'))).toBeNull();
  expect(violations).toEqual([]);
});

test('cancelling at the provider returns to the admin login saying so', async ({ page }) => {
  await startSingleSignOn(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole('alert')).toHaveText(MESSAGES.ssoCancelled);
});

test('a pop-up renewal hands the new tokens to its opener and closes', async ({ page }) => {
  await page.goto('/admin/login');
  await page.evaluate(() => {
    const received: unknown[] = [];
    (window as unknown as { received: unknown[] }).received = received;
    window.addEventListener('message', (event) => {
      if (event.origin === window.location.origin) received.push(event.data);
    });
  });
  const popupOpened = page.waitForEvent('popup');
  await page.evaluate(() => window.open('/oauth2/authorization/azure?isSessionExpired=true&isUserSwitched=true', 'kumo-sso', 'popup'));
  const popup = await popupOpened;
  await expect(popup).toHaveURL(/\/dev\/oidc\/interaction\//);
  await signInAtProvider(popup, 'staff@kumo.cloud');
  await popup.waitForEvent('close');

  const received = await page.evaluate(() => (window as unknown as { received: unknown[] }).received);
  expect(received).toEqual([
    { jwt_token: expect.stringMatching(/^[^.]+\.[^.]+\.[^.]+$/), refresh_token: expect.any(String), userSwitched: true },
  ]);
});

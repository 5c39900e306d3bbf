import { expect, test } from '@playwright/test';
import { ADMIN_MESSAGES } from '@kumo/contract';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { logIn, signUpThroughTheUi, staffSignIn } from './support/flows.js';

// A customer signs up, then a staff member signs in: more than the default minute.
test.describe.configure({ timeout: 120_000 });

const SCREENS = 'test-results/screens';

test("staff view a customer's console read-only, a change is refused, and End view returns to the customers page", async ({
  browser,
  page,
}) => {
  const customer = await (await browser.newContext()).newPage();
  const email = `switch-customer.${Date.now()}@example.com`;
  await signUpThroughTheUi(customer, email, 'Grace Hopper');
  const userId = await customer.evaluate(() => (JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { userId: string }).userId);
  await customer.context().close();

  await staffSignIn(page);
  const staffToken = await page.evaluate(() => localStorage.getItem('jwtToken'));
  await page.goto(`/admin/customers/${userId}`);
  await expect(page.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
  await page.getByRole('button', { name: 'View as customer' }).click();

  // The customer's home, under a banner that stays on every page.
  await expect(page).toHaveURL(/\/$/);
  const banner = page.getByRole('banner');
  await expect(banner).toContainText("You are viewing Grace Hopper's console as Sam Staff. Read-only.");
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscriptions' })).toBeVisible();
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(page, `customer console viewed by staff (${scheme})`);
    await page.screenshot({ path: `${SCREENS}/switch-customer-home-${scheme}.png` });
  }
  // On a phone the sentence wraps rather than losing its end, and End view stays at hand.
  await page.setViewportSize({ width: 390, height: 844 });
  const sentence = banner.getByText(/^You are viewing/);
  expect(await sentence.evaluate((text) => text.scrollHeight <= text.clientHeight)).toBe(true);
  const [shown, header] = [await sentence.boundingBox(), await banner.boundingBox()];
  expect(shown!.y + shown!.height).toBeLessThanOrEqual(header!.y + header!.height);
  await expect(banner.getByRole('button', { name: 'End view' })).toBeInViewport();
  await page.screenshot({ path: `${SCREENS}/switch-customer-phone.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The console offers no change the server would refuse, and the server refuses one made anyway.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscriptions' }).click();
  await expect(banner).toContainText('Read-only.');
  await expect(page.getByRole('heading', { name: 'Subscriptions', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add Funds' })).toHaveCount(0);
  await expect(page.getByText('No subscriptions yet.')).toBeVisible();
  await expect(page.getByText('Click New to create a subscription.')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/switch-customer-subscriptions.png` });
  const refused = await page.evaluate(async () => {
    const xsrf = /(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '';
    const response = await fetch('/api/subscription/create', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${localStorage.getItem('jwtToken')}`,
        'content-type': 'application/json',
        'x-xsrf-token': decodeURIComponent(xsrf),
      },
      body: JSON.stringify({ subscription_name: 'Staff Made' }),
    });
    return { status: response.status, body: (await response.json()) as { errorDetails?: { error_code: string; error_message: string } } };
  });
  expect(refused.status).toBe(403);
  expect(refused.body.errorDetails).toEqual({
    error_code: 'READ_ONLY_VIEW',
    error_message: ADMIN_MESSAGES.readOnlyView,
    request_id: expect.any(String),
  });

  // The clusters screens do not offer what the server would refuse.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clusters' }).click();
  await expect(page.getByText('All clusters')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New', exact: true })).toHaveCount(0);

  await banner.getByRole('button', { name: 'End view' }).click();
  await expect(page).toHaveURL(/\/admin\/customers/);
  await expect(page.getByRole('navigation', { name: 'Customers' })).toBeVisible();
  await expect(page.getByText(/You are viewing/)).toHaveCount(0);
  // The staff member's own session, as it was before the view.
  expect(await page.evaluate(() => localStorage.getItem('jwtToken'))).toBe(staffToken);
  await page.screenshot({ path: `${SCREENS}/switch-customer-ended.png` });

  // The staff member changes things again as themselves (the view's XSRF cookie is replaced on the way).
  await page.goto(`/admin/customers/${userId}`);
  // click(), not check(): the switch follows the server's answer, so it flips a render after the click.
  await page.getByRole('switch', { name: 'Disabled' }).click();
  await expect(page.getByRole('switch', { name: 'Enabled: preview versions offered at deployment' })).toBeChecked();

  // The customer sees who looked, and when, and what staff changed, under Users.
  const owner = await (await browser.newContext()).newPage();
  await logIn(owner, email);
  await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  const staffAccess = owner.getByRole('region', { name: 'Staff access', exact: true });
  const rows = staffAccess.getByRole('table', { name: 'Staff access' }).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('Kumo Cloud staff member Sam Staff (staff@kumo.cloud) offered the preview release.');
  await expect(rows.nth(2)).toContainText('Kumo Cloud staff member Sam Staff (staff@kumo.cloud) stopped viewing the console.');
  await expect(rows.nth(3)).toContainText('Kumo Cloud staff member Sam Staff (staff@kumo.cloud) started viewing the console, read-only.');
  await staffAccess.scrollIntoViewIfNeeded();
  for (const scheme of ['light', 'dark'] as const) {
    await owner.emulateMedia({ colorScheme: scheme });
    await expectNoSeriousA11yViolations(owner, `the users page with staff access entries (${scheme})`);
    await owner.screenshot({ path: `${SCREENS}/staff-access-${scheme}.png`, fullPage: true });
  }
});

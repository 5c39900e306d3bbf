import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN_MESSAGES, permissionsFor, type PermissionState } from '@kumo/contract';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { signUpThroughTheUi } from './support/flows.js';
import { mailCount, waitForOtp } from './support/mail.js';

// A customer signs up, then one or two staff members sign in: more than the default minute.
test.describe.configure({ timeout: 180_000 });

const STAFF = 'staff@kumo.cloud';
const APPROVER = 'approver@kumo.cloud';

/** A staff member signs in through the development single sign-on provider and lands on the customers page. */
async function staffSignIn(page: Page, email = STAFF): Promise<void> {
  await page.goto('/admin/login');
  await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/customers/);
}

/**
 * A staff page whose user detail carries other permission states: what the console shows for a role
 * is read from that map (the API enforces the same keys; its access-matrix tests prove that side).
 */
async function staffPageWith(browser: Browser, permissions: Record<string, PermissionState>): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.route('**/api/user/detail', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    await route.fulfill({ response, json: { ...body, permissions } });
  });
  await staffSignIn(page);
  return page;
}

/** A new customer with one subscription; returns the customer's page and user id. */
async function customerWithSubscription(browser: Browser): Promise<{ page: Page; userId: string }> {
  const page = await (await browser.newContext()).newPage();
  await signUpThroughTheUi(page, `admin-funds.${Date.now()}@example.com`, 'Grace Hopper');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscriptions' }).click();
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'New Subscription' });
  await create.getByLabel(/Subscription Name/).fill('Analytics');
  await create.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page).toHaveURL(/\/subscriptions\/[0-9a-f-]{36}$/);
  const userId = await page.evaluate(() => (JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { userId: string }).userId);
  return { page, userId };
}

test('staff add funds approved by the OTP mailed to the approver; the customer sees them with the remark', async ({ browser, page }) => {
  const customer = await customerWithSubscription(browser);

  await staffSignIn(page);
  await page.goto(`/admin/customers/${customer.userId}`);
  await expect(page.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'admin customer details');

  await page.getByRole('tab', { name: 'Subscriptions' }).click();
  await page.getByRole('table', { name: 'Subscriptions' }).getByRole('button', { name: 'Add Funds' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Funds' });
  await expect(dialog.getByRole('textbox', { name: /Amount/ })).toHaveValue('1000');
  await expect(dialog.getByText('One Thousand USD')).toBeVisible();
  await dialog.getByRole('textbox', { name: /Amount/ }).fill('250');
  await dialog.getByRole('textbox', { name: 'Remarks' }).fill('Credit for the May outage');

  const before = await mailCount(APPROVER);
  const staffMailsBefore = await mailCount(STAFF);
  await dialog.getByRole('button', { name: 'Proceed' }).click();
  await expect(dialog.getByText(ADMIN_MESSAGES.approverOtpSent)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'approver OTP dialog');
  const otp = await waitForOtp(APPROVER, before);
  // The requester is never sent the OTP.
  expect(await mailCount(STAFF)).toBe(staffMailsBefore);

  await dialog.getByRole('textbox', { name: "Approver's OTP" }).fill(otp);
  await dialog.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(ADMIN_MESSAGES.fundsAdded)).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/admin-funds-added.png' });
  await page.getByRole('button', { name: 'Close', exact: true }).click();

  // The customer sees the funds, with the category and the remark.
  await customer.page.reload();
  await expect(customer.page.getByText('$750.00').first()).toBeVisible();
  await customer.page.getByRole('tab', { name: 'Transaction History' }).click();
  const history = customer.page.getByRole('table', { name: 'Transaction history' });
  await expect(history.getByText('Credit for the May outage')).toBeVisible();
  await expect(history.getByText('Refund Maintenance Cost')).toBeVisible();
  await expect(history.getByText('$250.00')).toBeVisible();
});

test('a role whose keys are DISABLED sees the controls inactive; one whose keys are HIDDEN does not see them', async ({ browser }) => {
  const customer = await customerWithSubscription(browser);

  const support = await staffPageWith(browser, permissionsFor('SYSTEM_SUPPORT'));
  await support.goto(`/admin/customers/${customer.userId}`);
  await expect(support.getByRole('button', { name: 'Change Limit' })).toBeDisabled();
  await support.getByRole('tab', { name: 'Subscriptions' }).click();
  await expect(support.getByRole('table', { name: 'Subscriptions' }).getByRole('button', { name: 'Add Funds' })).toBeDisabled();
  await expectNoSeriousA11yViolations(support, 'admin customer details, support role');

  const hidden = await staffPageWith(browser, {
    ...permissionsFor('SYSTEM_ADMIN'),
    customer_change_overdue: 'HIDDEN',
    customer_subscription_add_funds: 'HIDDEN',
    customer_cost_analysis: 'HIDDEN',
  });
  await hidden.goto(`/admin/customers/${customer.userId}`);
  await expect(hidden.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
  await expect(hidden.getByRole('button', { name: 'Change Limit' })).toHaveCount(0);
  await expect(hidden.getByRole('tab', { name: 'Cost Analysis' })).toHaveCount(0);
  await hidden.getByRole('tab', { name: 'Subscriptions' }).click();
  await expect(hidden.getByRole('table', { name: 'Subscriptions' })).toBeVisible();
  await expect(hidden.getByRole('button', { name: 'Add Funds' })).toHaveCount(0);
});

import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN_MESSAGES, permissionsFor } from '@kumo/contract';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { createSubscription, deployCluster, signUpThroughTheUi, staffSignIn } from './support/flows.js';
import { mailCount, waitForOtp } from './support/mail.js';

// A customer signs up, then one or two staff members sign in: more than the default minute.
test.describe.configure({ timeout: 180_000 });

const STAFF = 'staff@kumo.cloud';
const APPROVER = 'approver@kumo.cloud';
/** Demo staff of two other roles (apps/api/src/demo/seed.ts). */
const SUPPORT = 'support@kumo.cloud';
const BILLING = 'billing@kumo.cloud';

/** A staff member of the demo data signed in in a browser of their own. */
async function staffPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await staffSignIn(page, email);
  return page;
}

/** A new customer with one subscription; returns the customer's page and user id. */
async function customerWithSubscription(browser: Browser): Promise<{ page: Page; userId: string }> {
  const page = await (await browser.newContext()).newPage();
  await signUpThroughTheUi(page, `admin-funds.${Date.now()}@example.com`, 'Grace Hopper');
  await createSubscription(page);
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
  await deployCluster(customer.page, 'Staff-View');
  const actionsMenu = async (page: Page) => {
    await page.getByRole('tab', { name: 'Clusters' }).click();
    await page.getByRole('button', { name: 'Actions for Staff-View' }).click();
    return page.getByRole('menu');
  };

  // Support changes nothing (docs/permissions.md): money and cluster actions are DISABLED, Open Manager HIDDEN.
  const supportKeys = permissionsFor('SYSTEM_SUPPORT');
  expect([supportKeys.customer_change_overdue, supportKeys.customer_subscription_add_funds, supportKeys.customer_delete_cluster]).toEqual([
    'DISABLED',
    'DISABLED',
    'DISABLED',
  ]);
  const support = await staffPage(browser, SUPPORT);
  await support.goto(`/admin/customers/${customer.userId}`);
  await expect(support.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
  await expect(support.getByRole('button', { name: 'Change Limit' })).toBeDisabled();
  await support.getByRole('tab', { name: 'Subscriptions' }).click();
  await expect(support.getByRole('table', { name: 'Subscriptions' }).getByRole('button', { name: 'Add Funds' })).toBeDisabled();
  const supportMenu = await actionsMenu(support);
  await expect(supportMenu.getByRole('menuitem', { name: 'Delete Cluster' })).toBeDisabled();
  await expect(supportMenu.getByRole('menuitem', { name: 'Open Manager' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(support, 'admin customer details, support role');

  // Billing moves money but does not touch clusters: Open Manager and Delete Cluster are HIDDEN.
  const billingKeys = permissionsFor('SYSTEM_BILLING');
  expect([billingKeys.customer_open_km, billingKeys.customer_delete_cluster, billingKeys.customer_change_overdue]).toEqual([
    'HIDDEN',
    'HIDDEN',
    'ENABLED',
  ]);
  const billing = await staffPage(browser, BILLING);
  await billing.goto(`/admin/customers/${customer.userId}`);
  await expect(billing.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
  await expect(billing.getByRole('button', { name: 'Change Limit' })).toBeEnabled();
  const billingMenu = await actionsMenu(billing);
  await expect(billingMenu.getByRole('menuitem', { name: 'View Details' })).toBeEnabled();
  await expect(billingMenu.getByRole('menuitem', { name: 'Download Deployment Template' })).toBeDisabled();
  await expect(billingMenu.getByRole('menuitem', { name: 'Open Manager' })).toHaveCount(0);
  await expect(billingMenu.getByRole('menuitem', { name: 'Delete Cluster' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(billing, 'admin customer clusters menu, billing role');
});

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`at ${viewport.width} px (${colorScheme}): the customer header and Transaction History fit`, async ({ browser }) => {
      const customer = await customerWithSubscription(browser);
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      await staffSignIn(page);
      await page.goto(`/admin/customers/${customer.userId}`);
      const name = page.getByRole('heading', { name: 'Grace Hopper' });
      await expect(name).toBeVisible();

      // View as customer never lies over the name or the e-mail.
      const button = await page.getByRole('button', { name: /View as customer/i }).boundingBox();
      const email = page.getByText(/^admin-funds\..*@example\.com$/).first();
      for (const [label, box] of [
        ['name', await name.boundingBox()],
        ['e-mail', await email.boundingBox()],
      ] as const) {
        const overlaps =
          !!box &&
          !!button &&
          box.x < button.x + button.width &&
          button.x < box.x + box.width &&
          box.y < button.y + button.height &&
          button.y < box.y + box.height;
        expect(overlaps, `View as customer covers the ${label}`).toBe(false);
      }

      await page.getByRole('tab', { name: 'Transaction History' }).click();
      const table = page.getByRole('table', { name: 'Transaction history' });
      await expect(table).toBeVisible();
      // Every status reads in full.
      for (const badge of await table.locator('tbody tr td:nth-child(7) .mantine-Badge-label').all()) {
        const { scrollWidth, clientWidth } = await badge.evaluate((element) => ({
          scrollWidth: element.scrollWidth,
          clientWidth: element.clientWidth,
        }));
        expect(scrollWidth, 'a status is cut short').toBeLessThanOrEqual(clientWidth + 1);
      }
      // At 1366 px the table fits its card, so the row's last control is not clipped.
      if (viewport.width >= 1366) {
        const viewportBox = await page.locator('.mantine-ScrollArea-viewport').filter({ has: table }).first().boundingBox();
        const receipt = await table
          .getByRole('button', { name: /Download receipt/ })
          .first()
          .boundingBox();
        expect(
          receipt && viewportBox && receipt.x + receipt.width <= viewportBox.x + viewportBox.width + 1,
          'the receipt button is clipped',
        ).toBe(true);
      }
      await page.screenshot({ path: `test-results/screens/admin-layout-${viewport.width}-${colorScheme}.png`, fullPage: true });
      await context.close();
    });
  }
}

test("Open Manager opens the demo customer's online cluster under the staff member's own name, with the provider's access", async ({
  browser,
}) => {
  const staff = await staffPage(browser, STAFF);
  await staff.getByText('owner@demo.kumo.cloud').first().click();
  await staff.getByRole('tab', { name: 'Clusters' }).click();
  await staff.getByRole('button', { name: 'Actions for Sales-Analytics' }).click();
  const [manager] = await Promise.all([staff.waitForEvent('popup'), staff.getByRole('menuitem', { name: 'Open Manager' }).click()]);
  await expect(manager).toHaveTitle('Kumo Manager · Sales-Analytics');
  await expect(manager.getByText(`${STAFF} (provider staff)`, { exact: true })).toBeVisible();
  await expect(manager.getByText('Full admin', { exact: true })).toBeVisible();
});

import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN_MESSAGES, permissionsFor } from '@kumo/contract';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { createSubscription, deployCluster, signUpThroughTheUi, staffSignIn } from './support/flows.js';
import { mailCount, waitForOtp } from './support/mail.js';
import { notClipped, pageDoesNotScrollSideways, withinViewport } from './support/layout.js';

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
async function customerWithSubscription(browser: Browser, mailbox = 'admin-funds'): Promise<{ page: Page; userId: string }> {
  const page = await (await browser.newContext()).newPage();
  await signUpThroughTheUi(page, `${mailbox}.${Date.now()}@example.com`, 'Grace Hopper');
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
    test(`at ${viewport.width} px (${colorScheme}): the customer list, header and Transaction History fit`, async ({ browser }) => {
      // A long address, wider than a phone: the list cuts it short rather than widening the page.
      const customer = await customerWithSubscription(browser, 'admin-funds.with-a-mailbox-name-far-wider-than-any-phone');
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      await staffSignIn(page);
      await page.goto(`/admin/customers/${customer.userId}`);
      const name = page.getByRole('heading', { name: 'Grace Hopper' });
      await expect(name).toBeVisible();
      const label = `${viewport.width} px, ${colorScheme}`;

      // The customer list keeps to its card, and the page to the screen.
      const list = page.getByRole('navigation', { name: 'Customers' });
      await expect(list.getByRole('link', { name: /^admin-funds\.with-a-mailbox-name/ }).first()).toBeVisible();
      await notClipped(page.locator('.mantine-ScrollArea-viewport').filter({ has: list }), `the customer list at ${label}`);
      await withinViewport(page, list, `the customer list at ${label}`);
      await pageDoesNotScrollSideways(page, `the customer page at ${label}`);

      // View as customer is on screen, and never lies over the name or the e-mail.
      const viewAs = page.getByRole('button', { name: /View as customer/i });
      await expect(viewAs).toBeVisible();
      await withinViewport(page, viewAs, `View as customer at ${label}`);
      const button = await viewAs.boundingBox();
      expect(button, 'View as customer is drawn').not.toBeNull();
      const email = page.getByText(/^admin-funds\..*@example\.com$/).first();
      await expect(email).toBeVisible();
      for (const [what, box] of [
        ['name', await name.boundingBox()],
        ['e-mail', await email.boundingBox()],
      ] as const) {
        expect(box, `the ${what} is drawn`).not.toBeNull();
        const overlaps =
          box!.x < button!.x + button!.width &&
          button!.x < box!.x + box!.width &&
          box!.y < button!.y + button!.height &&
          button!.y < box!.y + box!.height;
        expect(overlaps, `View as customer covers the ${what}`).toBe(false);
      }

      await page.getByRole('tab', { name: 'Transaction History' }).click();
      const table = page.getByRole('table', { name: 'Transaction history' });
      await expect(table).toBeVisible();
      // The subscription picker fits the screen, and so does the tab.
      const panel = page.getByRole('tabpanel', { name: 'Transaction History' });
      await withinViewport(page, panel.getByLabel('Subscription').first(), `the Subscription select at ${label}`);
      await notClipped(panel, `the Transaction History tab at ${label}`);
      await pageDoesNotScrollSideways(page, `Transaction History at ${label}`);
      // Every status reads in full.
      for (const badge of await table.locator('tbody tr td:nth-child(7) .mantine-Badge-label').all()) {
        await notClipped(badge, `a status at ${label}`);
      }
      // At 1366 px the table fits its box, so the row's last control is drawn whole on the screen.
      if (viewport.width >= 1366) {
        await notClipped(page.locator('.mantine-ScrollArea-viewport').filter({ has: table }).first(), 'the transaction table at 1366 px');
        const receipt = table.getByRole('button', { name: /Download receipt/ }).first();
        await expect(receipt).toBeVisible();
        await withinViewport(page, receipt, 'the receipt button at 1366 px');
        const [box, tableBox] = [await receipt.boundingBox(), await table.boundingBox()];
        expect(box!.x + box!.width, 'the receipt button inside the table').toBeLessThanOrEqual(tableBox!.x + tableBox!.width + 0.5);
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

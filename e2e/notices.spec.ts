import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN_MESSAGES } from '@kumo/contract';
import { expectNoSeriousA11yViolations, shownColorScheme } from './support/a11y.js';
import { createSubscription, signUpThroughTheUi, staffSignIn, tabTo } from './support/flows.js';
import { mailCount, waitForOtp } from './support/mail.js';
import { notClipped, pageDoesNotScrollSideways, withinViewport } from './support/layout.js';

/** The open bell passes axe in the light and the dark scheme, drawn whole inside the viewport. */
async function checkOpenBell(page: Page, panel: Locator, label: string): Promise<void> {
  await withinViewport(page, panel, `${label}: the notifications popover`);
  await pageDoesNotScrollSideways(page, label);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => shownColorScheme(page)).toBe(scheme);
    await expectNoSeriousA11yViolations(page, `${label} in the ${scheme} scheme`);
    await page.screenshot({ path: `test-results/screens/${label}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Staff raise the customer's query engine rate from five days ahead, approved by the OTP mailed to the approver. */
async function staffChangeRates(page: Page, userId: string): Promise<string> {
  const day = new Date(Date.now() + 5 * 24 * 3_600_000).toISOString().slice(0, 10);
  await staffSignIn(page);
  await page.goto(`/admin/customers/${userId}`);
  await page.getByRole('tab', { name: 'Service Rates' }).click();
  await page.getByRole('button', { name: 'Change Service Rates' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Service Rates' });
  await dialog.getByRole('textbox', { name: 'Query Engine' }).fill('0.08');
  await dialog.getByLabel('Effective from').fill(day);
  const approverMails = await mailCount('approver@kumo.cloud');
  await dialog.getByRole('button', { name: 'Change' }).click();
  await dialog.getByRole('textbox', { name: "Approver's OTP" }).fill(await waitForOtp('approver@kumo.cloud', approverMails));
  await dialog.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(ADMIN_MESSAGES.ratesChanged)).toBeVisible();
  return day;
}

test('a notice arrives in the bell, opens by keyboard, leads to its page and is marked read', async ({ browser, page }) => {
  test.setTimeout(240_000);
  const customer = await (await browser.newContext({ colorScheme: 'light', viewport: { width: 1366, height: 768 } })).newPage();
  await signUpThroughTheUi(customer, `bell.${Date.now()}@example.com`, 'Nora Notice');
  await createSubscription(customer, 'Notices');
  const quiet = customer.getByRole('button', { name: 'Notifications', exact: true });
  await expect(quiet).toBeVisible();
  const userId = await customer.evaluate(() => (JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { userId: string }).userId);

  const day = await staffChangeRates(page, userId);

  // The owner's bell counts the new notice in its name (the count is read again when the page loads).
  await customer.goto('/');
  const bell = customer.getByRole('button', { name: 'Notifications, 1 unread' });
  await expect(bell).toBeVisible();

  // By keyboard: Tab to the bell, Enter opens the popover with the focus inside it, Escape gives the focus back.
  await tabTo(customer, bell);
  await customer.keyboard.press('Enter');
  const panel = customer.getByRole('dialog', { name: 'Notifications' });
  await expect(panel).toBeVisible();
  await expect(bell).toHaveAttribute('aria-expanded', 'true');
  const link = panel.getByRole('link', { name: `Your service rates change on ${day}` });
  await expect(link).toBeVisible();
  await expect(panel.getByRole('listitem')).toHaveCount(1);
  await expect(panel.getByRole('listitem')).toContainText('Query Engine: $0.0800 per core per hour');
  await expect(panel.getByText('New', { exact: true })).toBeVisible();
  await expect.poll(() => panel.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  await checkOpenBell(customer, panel, 'bell-open-1366');
  await customer.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(bell).toBeFocused();

  // On a phone the popover fits the screen and passes axe too.
  await customer.setViewportSize({ width: 390, height: 844 });
  await customer.keyboard.press('Enter');
  await expect(panel).toBeVisible();
  await checkOpenBell(customer, panel, 'bell-open-390');
  // The long title wraps beside the "New" badge rather than cutting it to an ellipsis.
  await notClipped(panel.getByText('New', { exact: true }), 'the New badge at 390 px');

  // The notice's link, followed by keyboard, leads to its page and closes the popover.
  await tabTo(customer, link);
  await customer.keyboard.press('Enter');
  // /subscriptions selects the first subscription as soon as the list is known, so either URL is the page.
  await expect(customer).toHaveURL(/\/subscriptions(\/[0-9a-f-]{36})?$/);
  await expect(customer.getByRole('heading', { name: 'Subscriptions', level: 1 })).toBeVisible();
  await expect(panel).toBeHidden();

  // Mark all as read: the count leaves the bell's name and the notice is no longer new.
  await customer.setViewportSize({ width: 1366, height: 768 });
  await bell.click();
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(quiet).toBeVisible();
  await expect(panel.getByText('New', { exact: true })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  // And it stays read after a reload.
  await customer.reload();
  await expect(quiet).toBeVisible();
});

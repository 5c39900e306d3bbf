import { expect, test, type Page } from '@playwright/test';
import { ADMIN_MESSAGES } from '@kumo/contract';
import { expectNoSeriousA11yViolations, shownColorScheme } from './support/a11y.js';
import { createSubscription, deployCluster, signUpThroughTheUi } from './support/flows.js';
import { mailCount, waitForOtp } from './support/mail.js';
import { MAIL_READER_URL } from './support/stack.js';

/** Runs axe and keeps a screenshot of the page in the light and the dark scheme. */
async function checkBothSchemes(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => shownColorScheme(page)).toBe(scheme);
    await expectNoSeriousA11yViolations(page, `${name} in the ${scheme} scheme`);
    await page.screenshot({ path: `test-results/screens/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('subscription details say how long the balance lasts and show paid funds and each free-credit grant apart', async ({ page }) => {
  test.setTimeout(180_000);
  await signUpThroughTheUi(page, `runway.${Date.now()}@example.com`, 'Ada Lovelace');
  await createSubscription(page, 'Runway');

  // Nothing runs yet: no runway is claimed; the sign-up credits are a grant of their own, with its expiry.
  const lasts = page.getByRole('group', { name: 'Balance lasts' });
  await expect(lasts).toContainText('Not being spent');
  await expect(page.getByRole('group', { name: 'Paid funds' })).toContainText('$0.00');
  await expect(page.getByRole('group', { name: 'Free credits' })).toContainText('$500.00');
  await expect(page.getByRole('list', { name: 'Free credit grants' }).getByRole('listitem')).toHaveText([
    /^\$500\.00, expires [A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M \(29 days left\)$/,
  ]);
  await checkBothSchemes(page, 'subscription-credits');

  // A running cluster: the balance now lasts a while at the current rate (the simulated cloud's hours are short).
  await deployCluster(page, 'Runway-One');
  await expect(page.getByRole('group', { name: 'Status' }).locator('[data-status]')).toHaveText('Online', { timeout: 40_000 });

  await page.goto('/subscriptions');
  await expect(page.getByRole('heading', { name: 'Runway' })).toBeVisible();
  // At 3,600 billable hours a real hour the $500 go within minutes: the runway, or once spent, that it is used up.
  // With no overdue limit, running clusters stop when it is used up.
  await expect(lasts).toHaveText(
    /^Balance lasts((Less than an hour|About \d+ (hours?|days?))at the current rate of|Used upClusters cost) \$[\d,.]+ per hourRunning clusters (are stopped when it is used up|are being stopped: the balance is used up)\.$/,
  );
  await checkBothSchemes(page, 'subscription-runway');
});

test("new rates staff schedule show on the customer's subscription details until their date, and the owner is mailed", async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const email = `rates.${Date.now()}@example.com`;
  const customer = await (await browser.newContext()).newPage();
  await signUpThroughTheUi(customer, email, 'Grace Hopper');
  await customer.goto('/subscriptions');
  await customer.getByRole('button', { name: 'New', exact: true }).click();
  const create = customer.getByRole('dialog', { name: 'New Subscription' });
  await create.getByLabel(/Subscription Name/).fill('Analytics');
  await create.getByRole('button', { name: 'Subscribe' }).click();
  await expect(customer.getByRole('heading', { name: 'Analytics' })).toBeVisible();
  await expect(customer.getByRole('group', { name: 'Balance lasts' })).toBeVisible();
  await expect(customer.getByRole('note')).toHaveCount(0);
  const userId = await customer.evaluate(() => (JSON.parse(localStorage.getItem('userInfo') ?? '{}') as { userId: string }).userId);

  // Staff raise the query engine rate from five days ahead, approved by the OTP mailed to the approver.
  const effective = new Date(Date.now() + 5 * 24 * 3_600_000);
  const day = effective.toISOString().slice(0, 10);
  const shownDay = effective.toLocaleDateString('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });
  await page.goto('/admin/login');
  await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
  await page.getByLabel('E-mail').fill('staff@kumo.cloud');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/customers/);
  await page.goto(`/admin/customers/${userId}`);
  await page.getByRole('tab', { name: 'Service Rates' }).click();
  await page.getByRole('button', { name: 'Change Service Rates' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change Service Rates' });
  await dialog.getByRole('textbox', { name: 'Query Engine' }).fill('0.09');
  await dialog.getByLabel('Effective from').fill(day);
  const approverMails = await mailCount('approver@kumo.cloud');
  const ownerMails = await mailCount(email);
  await dialog.getByRole('button', { name: 'Change' }).click();
  await dialog.getByRole('textbox', { name: "Approver's OTP" }).fill(await waitForOtp('approver@kumo.cloud', approverMails));
  await dialog.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText(ADMIN_MESSAGES.ratesChanged)).toBeVisible();

  // The owner is told by mail, and the subscription details show the change with the rate it replaces.
  await expect.poll(() => mailCount(email)).toBe(ownerMails + 1);
  const mails = (await (await fetch(`${MAIL_READER_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as { raw: string }[];
  const mail = mails.at(-1)!.raw.replace(/=\r?\n/g, '');
  expect(mail).toContain(`From ${day} (UTC) these service rates apply`);
  expect(mail).toContain('Query Engine: $0.0900 per core per hour');

  await customer.reload();
  const notice = customer.getByRole('note');
  await expect(notice).toContainText(`New rates from ${shownDay}`);
  await expect(notice.getByRole('table', { name: `Rates changing on ${shownDay}` }).getByRole('row')).toHaveText([
    `ServiceNowFrom ${shownDay}`,
    'Query Engine$0.0600 per core per hour$0.0900 per core per hour',
  ]);
  await checkBothSchemes(customer, 'subscription-new-rates');
});

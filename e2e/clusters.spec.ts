import { expect, test, type Page } from '@playwright/test';
import { deletionOtpSentMessage } from '@kumo/contract';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { createSubscription, deployCluster, deployFromDialog, signUpThroughTheUi } from './support/flows.js';
import { mailCount, waitForOtp } from './support/mail.js';

// The stack's simulated cloud runs 3600 times faster than real time: a one-hour deployment takes about a
// second. What the screens wait for is their own 15-second polling, so each change gets up to 40 seconds.
const CHANGE = { timeout: 40_000 };

/** A new customer with a subscription holding the $500 sign-up credits, which is enough to deploy. */
async function customerWithFunds(page: Page, email: string): Promise<void> {
  await signUpThroughTheUi(page, email, 'Ada Lovelace');
  await createSubscription(page);
}

const status = (page: Page) => page.getByRole('group', { name: 'Status' }).locator('[data-status]');

test('a customer deploys a cluster through the dialog, stops it, starts it and deletes it with the OTP sent to the approver', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const email = `clusters.${Date.now()}@example.com`;
  await customerWithFunds(page, email);

  // From home's empty table to the create dialog on the clusters page.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page.getByText('No cluster has been deployed yet.')).toBeVisible();
  await page.getByRole('button', { name: 'New Cluster' }).click();
  await expect(page).toHaveURL(/\/clusters$/);
  const dialog = page.getByRole('dialog', { name: 'New Cluster' });
  await expect(dialog).toBeVisible();
  await expect(page.getByText('No cluster has been deployed yet. Click New to start the cluster deployment.')).toBeVisible();
  await expect(dialog.getByRole('status').filter({ hasText: 'Balance' })).toHaveText('Balance: $500.00');

  // A few of the rules on the way.
  await dialog.getByLabel(/^Cluster Name/).fill('1ab');
  await dialog.getByLabel('Description').fill('Reporting for the finance team');
  await expect(dialog.getByText('30/200')).toBeVisible();
  await dialog.getByLabel(/^CIDR/).pressSequentially('x10.1.0.0/16');
  await expect(dialog.getByLabel(/^CIDR/)).toHaveValue('10.1.0.0/16');
  await dialog.getByLabel(/^Password/).fill('weak pass');
  await expect(page.getByRole('list', { name: 'Password requirements' })).toContainText('At least 12 characters (not met)');
  await expect(dialog.getByLabel(/^Password/)).toHaveValue('weakpass');
  await dialog.getByLabel(/^Confirm Password/).fill('different');
  await expect(dialog.getByLabel(/^Backup Region/)).toBeDisabled();
  await dialog.getByRole('button', { name: 'Review and Deploy' }).click();
  await expect(dialog.getByText('Cluster Name must start with 3 letters', { exact: false })).toBeVisible();
  await expect(dialog.getByText('Password must have at least 12 characters', { exact: false })).toBeVisible();
  await expect(dialog.getByText('Region is required.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the create-cluster dialog with errors');

  await deployFromDialog(page, dialog, 'Analytics-One');
  await expect(page).toHaveTitle('Analytics-One - Analytics - Clusters | Kumo Cloud');
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb).toContainText('Analytics');
  await expect(breadcrumb).toContainText('Analytics-One');

  // The deployment steps end complete, the cluster online with its capacity.
  await page.getByRole('tab', { name: 'Deployment Details' }).click();
  const steps = page.getByRole('list', { name: 'Deployment steps' });
  await expect(steps.getByRole('listitem')).toHaveCount(3);
  await expect(steps.getByRole('listitem').first()).toHaveAttribute('data-state', 'success');
  await expect(page.getByText('Cluster deployment completed.')).toBeVisible(CHANGE);
  await expect(steps.locator('[data-state="success"]')).toHaveCount(3);
  await expect(status(page)).toHaveText('Online', CHANGE);
  await expect(page.getByRole('img', { name: 'Capacity 5 of 5' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Cloud Provider' }).first()).toContainText('AWS');
  await expect(page.getByRole('table', { name: 'Configuration' })).toContainText('Query Engine');
  // Kumo Manager opens in a new window with a ticket of the owner's own: it names them and their level.
  const [manager] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Kumo Manager' }).click()]);
  await expect(manager).toHaveTitle('Kumo Manager · Analytics-One', CHANGE);
  await expect(manager.getByText(email, { exact: true })).toBeVisible();
  await expect(manager.getByText('Full kmuser', { exact: true })).toBeVisible();
  await expect(manager.getByRole('list', { name: 'What you can do' })).toContainText('Manage users and security');
  await manager.close();
  const [portal] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Web Portal' }).click()]);
  await expect(portal).toHaveTitle('Kumo Web Portal · Analytics-One', CHANGE);
  await portal.close();

  // Manager access: the owner alone holds administrative privileges, so lowering them is refused on the spot.
  await page.getByRole('tab', { name: 'Manager Access' }).click();
  const level = page.getByRole('combobox', { name: 'Access level of Ada Lovelace' });
  await expect(level).toHaveValue('FULL_KMUSER');
  await level.selectOption('LIMITED');
  await expect(page.getByText('At least one user must keep administrative privileges.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save access' })).toBeDisabled();
  await expectNoSeriousA11yViolations(page, 'the manager access of a cluster');
  await level.selectOption('FULL_ADMIN');
  await page.getByRole('button', { name: 'Save access' }).click();
  await expect(page.getByText('Manager access has been updated.')).toBeVisible();
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByRole('table', { name: 'Nodes' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'an online cluster');

  // Stop, after the confirmation: offline, and the links go.
  await page.getByRole('button', { name: 'Stop', exact: true }).click();
  const stop = page.getByRole('dialog', { name: 'Stop cluster' });
  await expect(stop).toContainText('Stopping takes up to 5 minutes');
  await expectNoSeriousA11yViolations(page, 'the stop confirmation');
  await stop.getByRole('button', { name: 'Stop' }).click();
  await expect(status(page)).toHaveText('Offline', CHANGE);
  // Off, and still reachable by keyboard: focus shows why.
  const offManager = page.getByRole('button', { name: 'Kumo Manager' });
  await expect(offManager).toHaveAttribute('aria-disabled', 'true');
  await offManager.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(offManager).toBeFocused();
  await expect(page.getByRole('tooltip')).toHaveText('Kumo Manager is available only while the cluster is online.');
  await expect(page.getByRole('button', { name: 'Start' })).toBeEnabled();

  // Start again: online.
  await page.getByRole('button', { name: 'Start' }).click();
  const start = page.getByRole('dialog', { name: 'Start cluster' });
  await expect(start).toContainText('per hour');
  await start.getByRole('button', { name: 'Start' }).click();
  await expect(status(page)).toHaveText('Online', CHANGE);
  await page.getByRole('tab', { name: 'Audit Logs' }).click();
  const logs = page.getByRole('table', { name: 'Audit logs' });
  await expect(logs).toContainText(email);
  await expect(logs.getByRole('row')).not.toHaveCount(1);

  // Home lists it, with its row menu.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  const row = page.getByRole('table', { name: 'Clusters' }).getByRole('row', { name: /Analytics-One/ });
  await expect(row).toContainText('Online');
  await row.getByRole('button', { name: 'Actions for Analytics-One' }).click();
  await expect(page.getByRole('menuitem', { name: 'Stop' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Start' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Go to Cluster' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Analytics-One' })).toBeVisible();

  // Delete: the warning, the OTP from the mail sink (the owner deleting is the approver, told so); then it leaves the list.
  await page.getByRole('button', { name: 'More actions for Analytics-One' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const remove = page.getByRole('dialog', { name: 'Delete cluster' });
  await expectNoSeriousA11yViolations(page, 'the delete warning');
  const before = await mailCount(email);
  await remove.getByRole('button', { name: 'Delete' }).click();
  await expect(remove.getByText(deletionOtpSentMessage(email, true))).toBeVisible();
  await remove.getByLabel('One-time password').fill('000000');
  await remove.getByRole('button', { name: 'Verify' }).click();
  await expect(remove.getByLabel('One-time password')).toHaveValue('');
  await remove.getByLabel('One-time password').fill(await waitForOtp(email, before));
  await remove.getByRole('button', { name: 'Verify' }).click();
  await expect(
    remove.getByText('Deletion of the Analytics-One cluster for Analytics has started and will be completed within the next 5-10 minutes.'),
  ).toBeVisible();
  await remove.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByText('No cluster has been deployed yet. Click New to start the cluster deployment.')).toBeVisible(CHANGE);
  await expect(page).toHaveURL(/\/clusters$/);
  await expect(page.getByText('Clusters details are unavailable.')).toBeVisible();
});

test('a cluster whose stack fails shows the failed deployment, with only its deployment details to see', async ({ page }) => {
  test.setTimeout(180_000);
  // The page's timers run on a clock the test can move on (for the status readings' retries below).
  await page.clock.install();
  await customerWithFunds(page, `failing.${Date.now()}@example.com`);
  await deployCluster(page, 'Failing-cluster');

  await expect(page.getByText('Cluster deployment has failed.')).toBeVisible(CHANGE);
  await expect(status(page)).toHaveText('Deployment Failed');
  const steps = page.getByRole('list', { name: 'Deployment steps' });
  await expect(steps.locator('[data-state="error"]')).toHaveCount(1);
  await expect(steps).toContainText('Failed');
  for (const tab of ['Overview', 'Cost Analysis', 'Audit Logs']) await expect(page.getByRole('tab', { name: tab })).toBeDisabled();
  await expect(page.getByRole('tab', { name: 'Deployment Details' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Start' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Kumo Manager' })).toHaveAttribute('aria-disabled', 'true');
  await expectNoSeriousA11yViolations(page, 'a failed deployment');

  // The status cannot be read: the page says so, tries twice more 15 seconds apart, then stops and offers Check again.
  const statusCall = '**/api/cluster/deployment-details/status/**';
  let readings = 0;
  await page.route(statusCall, (route) => {
    readings += 1;
    return route.fulfill({ status: 502, body: 'Bad gateway' });
  });
  await page.reload();
  const problem = page.getByRole('alert').filter({ hasText: 'The status shown may be out of date' });
  await expect(problem).toContainText('Internal Server Error');
  await expect(problem).toContainText('Trying again in 15 seconds.');
  for (const reading of [2, 3]) {
    // Each try goes out when the clock reaches it, and only then schedules the next one.
    await page.clock.runFor(15_000);
    await expect.poll(() => readings).toBe(reading);
  }
  await expect(problem).toContainText('it is no longer read automatically.');
  await page.clock.runFor(60_000);
  expect(readings).toBe(3);
  await expectNoSeriousA11yViolations(page, 'a status reading that failed three times');
  await page.screenshot({ path: 'test-results/screens/cluster-status-unreadable.png' });
  await page.unroute(statusCall);
  await problem.getByRole('button', { name: 'Check again' }).click();
  await expect(problem).toHaveCount(0);
  await expect(status(page)).toHaveText('Deployment Failed');
});

import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/a11y.js';
import { createSubscription, fillClusterDialog, signUpThroughTheUi } from './support/flows.js';
import { pageDoesNotScrollSideways } from './support/layout.js';

// The stack's simulated cloud runs 3600 times faster than real time: 10 idle minutes pass in a sixth of a second,
// so the stop comes with the check queued when auto-stop is saved, or at the latest with the minute sweep.
const STOP = { timeout: 90_000 };

const panel = (page: Page) => page.getByRole('heading', { name: 'Auto-stop' }).locator('xpath=..');

test('a customer sets auto-stop on a cluster and sees it stop after its idle minutes, the reason in the timeline', async ({ page }) => {
  test.setTimeout(240_000);
  await signUpThroughTheUi(page, `autostop.${Date.now()}@example.com`, 'Ada Lovelace');
  await createSubscription(page);

  // Created with auto-stop off, so it stays up until the panel turns it on.
  await page.goto('/clusters');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New Cluster' });
  await fillClusterDialog(page, dialog, 'Sleepy-One');
  const autoStop = dialog.getByRole('group', { name: 'Auto-stop' });
  await expect(autoStop.getByRole('textbox', { name: /Idle minutes/ })).toHaveValue('60');
  await autoStop.getByRole('switch', { name: 'Stop when idle' }).uncheck({ force: true });
  await dialog.getByRole('button', { name: 'Review and Deploy' }).click();
  await page.getByRole('dialog', { name: 'Review Cluster' }).getByRole('button', { name: 'Confirm' }).click();
  const status = page.getByRole('group', { name: 'Status' }).locator('[data-status]');
  await expect(status).toHaveText(/Online/i, { timeout: 60_000 });

  await expect(panel(page).getByText('Auto-stop is off')).toBeVisible(STOP);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await panel(page).scrollIntoViewIfNeeded();
    await pageDoesNotScrollSideways(page, `the auto-stop panel at ${width} px`);
    await expectNoSeriousA11yViolations(page, `the auto-stop panel at ${width} px`);
    await panel(page).screenshot({ path: `test-results/auto-stop-panel-${width}.png` });
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  // Turned on with the keyboard's reach: 10 minutes, saved.
  await panel(page).getByRole('switch', { name: 'Stop when idle' }).check({ force: true });
  const minutes = panel(page).getByRole('textbox', { name: /Idle minutes/ });
  await minutes.fill('5');
  await panel(page).getByRole('button', { name: 'Save auto-stop' }).click();
  await expect(panel(page).getByText('Enter idle minutes as a whole number from 10 to 1,440, or turn auto-stop off.')).toBeVisible();
  await minutes.fill('10');
  await panel(page).getByRole('button', { name: 'Save auto-stop' }).press('Enter');
  await expect(page.getByText('Auto-stop settings saved.')).toBeVisible();

  // Nothing queries it: it stops, and the timeline says why.
  await expect(async () => {
    await page.reload();
    await expect(page.getByText('Stopped after 10 idle minutes; no query since it started.').first()).toBeVisible({ timeout: 5_000 });
  }).toPass(STOP);
  await expect(status).not.toHaveText(/Online/i);
  await expectNoSeriousA11yViolations(page, 'the stopped cluster with its auto-stop reason');
});

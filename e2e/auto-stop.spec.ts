import { expect, test, type Page } from '@playwright/test';
import { AUTO_STOP_MESSAGES } from '@kumo/contract';
import { createSubscription, fillClusterDialog, fundByCard, signUpThroughTheUi, tabTo, turnOffAutoStop } from './support/flows.js';
import { checkAtBothWidths } from './support/screens.js';

// The stack's simulated cloud runs 3,600 times faster than real time: 10 idle minutes pass in a sixth of a second, so
// the stop comes with the check queued when auto-stop is saved, or at the latest with the minute's sweep.
const STOP = { timeout: 120_000 };

const panel = (page: Page) => page.getByRole('heading', { name: 'Auto-stop', exact: true }).locator('xpath=..');
const status = (page: Page) => page.getByRole('group', { name: 'Status' }).locator('[data-status]');
/** The entries of the cluster's timeline: the list items inside its day lists, not the days themselves. */
const timelineEntries = (page: Page) =>
  page
    .getByRole('region', { name: 'Timeline' })
    .getByRole('listitem')
    .filter({ hasNot: page.getByRole('listitem') });

test('a customer sees what kept a cluster awake, sets auto-stop by keyboard and watches it stop with the reason in the timeline', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  const email = `autostop.${Date.now()}@example.com`;
  await signUpThroughTheUi(page, email, 'Ada Lovelace');
  await createSubscription(page);
  await fundByCard(page);

  // Created with auto-stop off, so it stays up until the panel turns it on.
  await page.goto('/clusters');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New Cluster' });
  await fillClusterDialog(page, dialog, 'Sleepy-One');
  const createAutoStop = dialog.getByRole('group', { name: 'Auto-stop' });
  await expect(createAutoStop.getByRole('textbox', { name: /Idle minutes/ })).toHaveValue('60');
  await turnOffAutoStop(page, dialog);
  await dialog.getByRole('button', { name: 'Review and Deploy' }).click();
  await page.getByRole('dialog', { name: 'Review Cluster' }).getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/clusters\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
  await expect(status(page)).toHaveText(/Online/i, { timeout: 60_000 });

  // One console query: it is what kept the cluster awake.
  await page.getByRole('tab', { name: 'SQL' }).click();
  const editor = page.getByRole('tabpanel', { name: 'SQL' }).getByRole('textbox', { name: 'SQL query' });
  await editor.fill('select count(*) as customers from samples.customers');
  await editor.press('Control+Enter');
  await expect(page.getByRole('tabpanel', { name: 'SQL' }).getByText(/^1 row in \d+ ms$/)).toBeVisible();

  await page.getByRole('tab', { name: 'Overview' }).click();
  const now = panel(page).getByRole('status', { name: 'Auto-stop now' });
  await expect(now).toContainText('Auto-stop is off');
  const sources = panel(page).getByRole('table', { name: 'What kept it awake in the last 24 hours' });
  const consoleRow = sources.getByRole('row').filter({ hasText: 'Console' });
  await expect(consoleRow).toContainText('127.0.0.1');
  await expect(consoleRow).toContainText(email);
  // The browser by its short name; the whole User-Agent is the cell's title.
  await expect(consoleRow).toContainText('Headless Chrome');
  await checkAtBothWidths(page, panel(page), 'the auto-stop panel while off');

  // Turned on by keyboard: 5 minutes is refused under the field, 10 is saved.
  const onSwitch = panel(page).getByRole('switch', { name: 'Stop when idle' });
  await onSwitch.focus();
  await page.keyboard.press('Space');
  await expect(onSwitch).toBeChecked();
  const minutes = panel(page).getByRole('textbox', { name: /Idle minutes/ });
  await tabTo(page, minutes);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('5');
  await tabTo(page, panel(page).getByRole('button', { name: 'Save auto-stop' }));
  await page.keyboard.press('Enter');
  await expect(panel(page).getByText('Enter idle minutes as a whole number from 10 to 1,440, or turn auto-stop off.')).toBeVisible();
  // Back to the minutes with Shift+Tab, past the restart switch.
  for (let presses = 0; presses < 5 && !(await minutes.evaluate((element) => element === document.activeElement)); presses += 1) {
    await page.keyboard.press('Shift+Tab');
  }
  await expect(minutes).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('10');
  await tabTo(page, panel(page).getByRole('button', { name: 'Save auto-stop' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText(AUTO_STOP_MESSAGES.saved)).toBeVisible();

  // Nothing queries it any more: it stops, and the cluster's timeline says why in the stop's own entry, by the system,
  // naming the last query's address.
  const reason = /Stopped after 10 idle minutes; last query (\d{4}-\d\d-\d\d )?\d\d:\d\d UTC from 127\.0\.0\.1/;
  const stopEntry = timelineEntries(page).filter({ hasText: reason });
  await expect(async () => {
    await page.reload();
    await expect(stopEntry).toHaveCount(1, { timeout: 5_000 });
  }).toPass(STOP);
  await expect(stopEntry).toContainText('Stop requested');
  await expect(stopEntry).toContainText('by System');
  // The status was read as the page opened, before its timeline: read again, it says the cluster is stopping or stopped.
  await page.reload();
  await expect(status(page)).toHaveText(/Offline|Stopping/i);

  // The owner's bell has the notice, with the same reason.
  await page.reload();
  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  const bell = page.getByRole('dialog', { name: 'Notifications' });
  const notice = bell.getByRole('listitem').filter({ hasText: 'Sleepy-One was stopped after 10 idle minutes' });
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText(reason);
  await expect(notice.getByRole('link', { name: 'Sleepy-One was stopped after 10 idle minutes' })).toHaveAttribute(
    'href',
    new URL(page.url()).pathname,
  );
  await page.keyboard.press('Escape');
  await expect(panel(page).getByRole('status', { name: 'Auto-stop now' })).toContainText('Only while online');
  await checkAtBothWidths(page, panel(page), 'the auto-stop panel after the stop');
});

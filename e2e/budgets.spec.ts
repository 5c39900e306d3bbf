import { expect, test, type Page } from '@playwright/test';
import { budgetExceededMessage } from '@kumo/contract';
import { checkAtBothWidths } from './support/screens.js';
import {
  createSubscription,
  fillClusterDialog,
  openAddFunds,
  payOnTheSandbox,
  signUpThroughTheUi,
  tabTo,
  turnOffAutoStop,
} from './support/flows.js';
import { MAIL_READER_URL } from './support/stack.js';

// The stack's simulated cloud runs at SIM_TIME_SCALE=3600: a running cluster uses one billable hour each real
// second, and the metering job charges them every minute, so each run charges about 60 hours. Screens poll every
// 15 seconds.
const CHANGE = { timeout: 40_000 };
/** Long enough for the budget to be used up in a few metering runs, and the cluster to stop. */
const RUNS = { timeout: 300_000 };
/** The budget lasts this many billable hours of the cluster: about two and a half metering runs. */
const BUDGET_HOURS = 150;
const SUBSCRIPTION = 'Capped';

/** The subjects of the mails sent to `email` so far, their folded header lines joined. */
async function mailSubjects(email: string): Promise<string[]> {
  const mails = (await (await fetch(`${MAIL_READER_URL}/messages?to=${encodeURIComponent(email)}`)).json()) as { raw: string }[];
  return mails.map(
    ({ raw }) =>
      raw
        .replace(/\r?\n[ \t]+/g, ' ')
        .match(/^Subject: (.*)$/m)?.[1]
        ?.trim() ?? '',
  );
}

/** Deploys a cluster and returns on its page, with what one hour of it costs at the customer's rates. */
async function deployAndReadRate(page: Page, name: string): Promise<number> {
  await page.goto('/clusters');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New Cluster' });
  await fillClusterDialog(page, dialog, name);
  await turnOffAutoStop(page, dialog);
  await dialog.getByRole('button', { name: 'Review and Deploy' }).click();
  const review = page.getByRole('dialog', { name: 'Review Cluster' });
  const preview = review.getByText(/^\$[\d,.]+ per hour at your rates/);
  const rate = Number((await preview.textContent())!.match(/^\$([\d,.]+)/)![1]!.replace(/,/g, ''));
  await review.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/clusters\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
  return rate;
}

const status = (page: Page) => page.getByRole('group', { name: 'Status' }).locator('[data-status]');

test('a budget with a hard cap alerts in the bell and by mail, stops the cluster before it passes the budget and holds it until raised', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const email = `budget.${Date.now()}@example.com`;
  await page.setViewportSize({ width: 1366, height: 768 });
  await signUpThroughTheUi(page, email, 'Bea Budget');
  await createSubscription(page, SUBSCRIPTION);
  const subscriptionUrl = page.url();
  // Room beyond the budget, so that the hard cap stops the cluster before the balance runs out.
  await openAddFunds(page, '3,000');
  await payOnTheSandbox(page, '4242 4242 4242 4242');
  const paid = page.getByRole('dialog', { name: 'Add Funds' });
  await expect(paid.getByText('Payment successful')).toBeVisible({ timeout: 30_000 });
  await paid.getByRole('button', { name: 'Close', exact: true }).click();

  const rate = await deployAndReadRate(page, 'Capped-One');
  const clusterUrl = page.url();
  const budget = Math.ceil(rate * BUDGET_HOURS);

  // The card offers a budget; the dialog opens and is filled in by keyboard alone.
  await page.goto(subscriptionUrl);
  const card = page.getByRole('region', { name: /^Monthly budget/ });
  await expect(card).toContainText('No budget is set.');
  await tabTo(page, card.getByRole('button', { name: 'Set a budget' }), 60);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Set a budget' });
  await expect(dialog).toBeVisible();
  await checkAtBothWidths(page, dialog, 'budget-dialog');
  await tabTo(page, dialog.getByLabel(/^Monthly budget \(USD\)/));
  await page.keyboard.type(String(budget));
  await tabTo(page, dialog.getByLabel(/^Alert thresholds/));
  await expect(dialog.getByLabel(/^Alert thresholds/)).toHaveValue('50, 75, 90, 100');
  const cap = dialog.getByRole('checkbox', { name: "Stop this subscription's clusters when the budget is used up" });
  await tabTo(page, cap);
  await page.keyboard.press('Space');
  await expect(cap).toBeChecked();
  await tabTo(page, dialog.getByRole('button', { name: 'Save budget' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('The budget has been saved.')).toBeVisible();
  await expect(card.getByRole('heading')).toHaveText(`Monthly budget: $${budget.toLocaleString('en-US')}.00`);
  await expect(card).toContainText('Hard cap on');

  // The metering runs cross the thresholds: each alert reaches the bell and the mailbox, and the cluster stops before
  // the next run's hours would pass the budget (decision 0036), so below 100 %, and the stop mail says the real share.
  // Mail goes out through several delivery workers at once, so the mailbox's order is not the order of sending.
  const stopSubject = new RegExp(`^Kumo Analytics Cloud: Clusters of ${SUBSCRIPTION} were stopped at (\\d+)% of the monthly budget$`);
  let stopped = '';
  await expect(async () => {
    stopped = (await mailSubjects(email)).find((subject) => stopSubject.test(subject)) ?? '';
    expect(stopped).not.toBe('');
  }).toPass({ ...RUNS, intervals: [5_000] });
  const stoppedAt = Number(stopped.match(stopSubject)![1]);
  expect(stoppedAt).toBeGreaterThan(0);
  expect(stoppedAt).toBeLessThan(100);
  const subjects = (await mailSubjects(email)).filter((subject) => subject.includes('of the monthly budget reached'));
  // Each threshold is named once at most (several crossed in one run share a mail naming the highest), none above the
  // share the clusters stopped at.
  expect(new Set(subjects).size).toBe(subjects.length);
  const named = subjects.map((subject) => Number(subject.match(/: (\d+)% of the monthly budget reached$/)?.[1]));
  expect(named.every((threshold) => [50, 75, 90].includes(threshold) && threshold <= stoppedAt)).toBe(true);

  await page.goto('/');
  const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
  await expect(bell).toBeVisible();
  const unread = Number((await bell.getAttribute('aria-label'))?.match(/(\d+) unread/)?.[1] ?? 0);
  expect(unread).toBeGreaterThanOrEqual(subjects.length + 1);
  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel.getByRole('link', { name: stopped.replace('Kumo Analytics Cloud: ', '') })).toBeVisible();
  for (const subject of subjects) {
    await expect(panel.getByRole('link', { name: subject.replace('Kumo Analytics Cloud: ', '') })).toHaveCount(1);
  }
  await expect(panel).toContainText('These clusters were stopped (not deleted; their data is kept): Capped-One.');
  await page.keyboard.press('Escape');

  // Stopped, and the Start dialog says why it cannot start before anyone confirms.
  await page.goto(clusterUrl);
  await expect(status(page)).toHaveText('Offline', RUNS);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  const startDialog = page.getByRole('dialog', { name: 'Start cluster' });
  await expect(startDialog.getByText(budgetExceededMessage(SUBSCRIPTION), { exact: true })).toBeVisible();
  expect(budgetExceededMessage(SUBSCRIPTION)).toBe(
    'The monthly budget of Capped is used up. Raise the budget to start clusters this month.',
  );
  await expect(startDialog.getByRole('button', { name: 'Start', exact: true })).toBeDisabled();
  await startDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(status(page)).toHaveText('Offline');

  // The card shows the budget used up and the alerts sent, at both widths and in both schemes.
  await page.goto(subscriptionUrl);
  // Stopped clusters' storage is still charged, so the spend may have grown a little since the stop.
  const shownPercent = Number(await card.getByRole('meter').getAttribute('aria-valuenow'));
  expect(shownPercent).toBeGreaterThanOrEqual(stoppedAt);
  expect(shownPercent).toBeLessThan(100);
  await checkAtBothWidths(page, card, 'budget-card');

  // Raised well above the spend, the budget lets the cluster start again.
  await card.getByRole('button', { name: 'Edit budget' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit budget' });
  await edit.getByLabel(/^Monthly budget \(USD\)/).fill(String(budget * 10));
  await edit.getByRole('button', { name: 'Save budget' }).click();
  await expect(edit).toBeHidden();
  await page.goto(clusterUrl);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await startDialog.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(status(page)).toHaveText(/^(Starting|Online)$/, CHANGE);
  await expect(status(page)).toHaveText('Online', CHANGE);
});

import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, shownColorScheme } from './support/a11y.js';
import { pageDoesNotScrollSideways } from './support/layout.js';
import { createSubscription, fillClusterDialog, signUpThroughTheUi, turnOffAutoStop } from './support/flows.js';

// The stack's simulated cloud runs at SIM_TIME_SCALE=3600: a running cluster uses one billable hour each real
// second, and the metering job charges them every minute. Screens poll every 15 seconds.
const CHARGED = { timeout: 150_000 };
const CHANGE = { timeout: 40_000 };
const SIGN_UP_CREDITS = 500;

/** '$1,234.56' or '-$3.10' → dollars; '--' → 0. */
function dollars(text: string | null): number {
  const value = (text ?? '').trim();
  if (value === '--' || value === '') return 0;
  const amount = Number(value.replace(/[$,]/g, ''));
  if (Number.isNaN(amount)) throw new Error(`not an amount: ${value}`);
  return amount;
}

/** The month's total cost: the last cell of the cost table's Total row. */
async function costTableTotal(scope: Page | Locator, caption: RegExp): Promise<number> {
  const table = scope.getByRole('table', { name: caption }).first();
  await expect(table).toBeVisible();
  return dollars(await table.locator('tfoot tr').last().locator('th, td').last().textContent());
}

/** /cost-analysis's table of every subscription's cost. */
const overviewTable = (page: Page) => page.getByRole('table', { name: /^Cost of each subscription/ });

/** Sums the last column of a CSV's data rows (a Total row, if the file has one, is left out). */
function csvTotal(csv: string): number {
  const rows = csv
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .filter((row) => row && !/^"?total/i.test(row));
  const cents = rows.reduce((sum, row) => sum + Math.round(Number(row.split(',').at(-1)!.replace(/["$]/g, '')) * 100), 0);
  return cents / 100;
}

test('a running cluster’s costs show on its tab, the subscription tab and /cost-analysis, match the balance and the CSV', async ({
  page,
}) => {
  test.setTimeout(420_000);
  await signUpThroughTheUi(page, `costs.${Date.now()}@example.com`, 'Ada Lovelace');
  await createSubscription(page);
  await expect(page.getByRole('group', { name: 'Your Balance' })).toContainText('$500.00');

  // Before any use, the tab says there is none.
  await page.getByRole('tab', { name: 'Cost Analysis' }).click();
  await expect(page.getByText('Usage cost for the current period is not available.')).toBeVisible();

  // A cluster, with the cost preview in the review.
  await page.goto('/clusters');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New Cluster' });
  await fillClusterDialog(page, dialog, 'Costly-One');
  await turnOffAutoStop(page, dialog);
  await dialog.getByRole('button', { name: 'Review and Deploy' }).click();
  const review = page.getByRole('dialog', { name: 'Review Cluster' });
  await expect(review.getByText(/^\$[\d,.]+ per hour at your rates; your balance covers about \d+ hours?\.$/)).toBeVisible();
  await review.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/clusters\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
  const clusterUrl = page.url();
  await expect(page.getByRole('group', { name: 'Status' }).locator('[data-status]')).toHaveText('Online', CHANGE);

  // Its costs appear on its own tab.
  await page.getByRole('tab', { name: 'Cost Analysis' }).click();
  await expect(page.getByRole('table', { name: /^Daily cost of Costly-One/ })).toBeVisible(CHARGED);
  expect(await costTableTotal(page, /^Daily cost of Costly-One/)).toBeGreaterThan(0);
  await expect(page.getByRole('table', { name: /^Daily consumption of Costly-One/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the cluster Cost Analysis tab');

  // The Overview's timeline joins the deployment's steps and the days' charges, in the light and the dark scheme.
  await page.getByRole('tab', { name: 'Overview' }).click();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  // Entries are the items of each day's list, itself an item of the list of days.
  const entries = timeline.getByRole('listitem').getByRole('listitem');
  await expect(entries.filter({ hasText: 'Deploying the product' })).toContainText('Done');
  const charge = await entries
    .filter({ hasText: /^Charges (so far today|for the day)/ })
    .first()
    .textContent();
  expect(dollars(charge?.replace(/^Charges (so far today|for the day)/, '') ?? null)).toBeGreaterThan(0);
  await expectNoSeriousA11yViolations(page, 'the cluster Overview tab with its timeline');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => shownColorScheme(page)).toBe('dark');
  await expectNoSeriousA11yViolations(page, 'the cluster timeline in the dark scheme');
  await page.emulateMedia({ colorScheme: 'light' });

  // Charges keep coming while it runs: each reading is taken afresh until the screens agree between two metering runs.
  await expect(async () => {
    await page.goto(clusterUrl);
    await page.getByRole('tab', { name: 'Cost Analysis' }).click();
    const clusterTotal = await costTableTotal(page, /^Daily cost of Costly-One/);

    await page.goto('/subscriptions');
    await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
    // The group holds its label, the amount and the Add Funds link: read the amount out of it.
    const balanceText = await page.getByRole('group', { name: 'Your Balance' }).textContent();
    const balance = dollars(balanceText?.match(/-?\$[\d,]+\.\d{2}/)?.[0] ?? null);
    await page.getByRole('tab', { name: 'Cost Analysis' }).click();
    const subscriptionTotal = await costTableTotal(page, /^Daily cost of Analytics/);

    await page.goto('/cost-analysis');
    const overview = overviewTable(page);
    const row = overview.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Analytics' }) });
    const cells = row.locator('td');
    const actual = dollars(await cells.nth(0).textContent());
    const shownBalance = dollars(await cells.nth(2).textContent());

    expect(clusterTotal).toBeGreaterThan(0);
    expect(subscriptionTotal).toBe(clusterTotal);
    expect(actual).toBe(subscriptionTotal);
    expect(shownBalance).toBe(balance);
    // The balance fell by exactly what was charged.
    expect(Math.round((SIGN_UP_CREDITS - balance) * 100) / 100).toBe(subscriptionTotal);
  }).toPass({ timeout: 180_000, intervals: [2_000, 5_000] });

  // The overview's charts, with their text equivalents, in the light and the dark scheme.
  await expect(page.getByText(/^Daily cost of Analytics by service/)).toBeVisible();
  await page.getByText('Daily cost by service as a table').click();
  await expect(page.getByRole('columnheader', { name: 'BI Server' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, '/cost-analysis in the light scheme');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => shownColorScheme(page)).toBe('dark');
  await expectNoSeriousA11yViolations(page, '/cost-analysis in the dark scheme');
  await page.emulateMedia({ colorScheme: 'light' });

  // On a phone the cost screens keep to the screen's width: their tables scroll inside their own boxes.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(overviewTable(page)).toBeVisible();
  await pageDoesNotScrollSideways(page, '/cost-analysis at 390 px');
  await page.screenshot({ path: 'test-results/screens/cost-analysis-phone.png', fullPage: true });
  await page.goto(clusterUrl);
  await page.getByRole('tab', { name: 'Cost Analysis' }).click();
  await expect(page.getByRole('table', { name: /^Daily cost of Costly-One/ })).toBeVisible();
  await pageDoesNotScrollSideways(page, "the cluster's Cost Analysis tab at 390 px");
  await page.screenshot({ path: 'test-results/screens/cluster-costs-phone.png', fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The CSV holds the same total as the table it was downloaded from.
  await expect(async () => {
    await page.goto(clusterUrl);
    await page.getByRole('tab', { name: 'Cost Analysis' }).click();
    const shown = await costTableTotal(page, /^Daily cost of Costly-One/);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Cost CSV' }).click();
    const file = await (await download).path();
    expect(csvTotal(await readFile(file, 'utf8'))).toBe(shown);
  }).toPass({ timeout: 120_000, intervals: [2_000, 5_000] });

  // The full-screen view of the cost table, in the dark scheme too.
  await page.getByRole('button', { name: 'Full screen' }).click();
  const fullScreen = page.getByRole('dialog', { name: /^Daily cost of Costly-One/ });
  await expect(fullScreen.getByRole('table')).toBeVisible();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoSeriousA11yViolations(page, 'the full-screen cost table in the dark scheme');
});

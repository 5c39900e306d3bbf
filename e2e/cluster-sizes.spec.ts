import { expect, test, type Locator, type Page } from '@playwright/test';
import { CLUSTER_SIZE_MESSAGES, CLUSTER_SIZE_NAMES, capacityLabel } from '@kumo/contract';
import { createSubscription, fillClusterDialog, fundByCard, signUpThroughTheUi, turnOffAutoStop } from './support/flows.js';
import { checkAtBothWidths } from './support/screens.js';

// At 3,600 times real time engines come and go in moments; the cluster page polls every 15 seconds.
const CHANGE = { timeout: 60_000 };
const PRICE = /^[SL] × \d: \$[\d,.]+ per hour \(about \$[\d,.]+ a month\); the balance lasts about [\d.]+ days with it\.$/;

const status = (page: Page) => page.getByRole('group', { name: 'Status' }).locator('[data-status]');
// The query engines' own nodes (the build node runs a query engine service of its own, which resizing leaves alone).
const queryEngineRows = (page: Page) =>
  page
    .getByRole('table', { name: 'Nodes' })
    .getByRole('row')
    .filter({ hasText: /^kumo-qe-\d/ });

/** Moves a focused control with the arrow keys until `done` holds (at most five presses). */
async function pressUntil(page: Page, key: 'ArrowLeft' | 'ArrowRight', done: () => Promise<boolean>): Promise<void> {
  for (let presses = 0; presses < 5 && !(await done()); presses += 1) await page.keyboard.press(key);
  expect(await done()).toBe(true);
}

/** Picks the size and the number of query engines by keyboard, in the create form or the Resize dialog. */
async function chooseShape(page: Page, scope: Locator, size: string, engines: number): Promise<void> {
  const sizeRadio = (name: string) => scope.getByRole('radio', { name, exact: true });
  const checked = (await Promise.all(CLUSTER_SIZE_NAMES.map((name) => sizeRadio(name).isChecked()))).indexOf(true);
  expect(checked, 'a size is chosen').toBeGreaterThanOrEqual(0);
  await sizeRadio(CLUSTER_SIZE_NAMES[checked]!).focus();
  const wanted = sizeRadio(size);
  const key = CLUSTER_SIZE_NAMES.indexOf(size as (typeof CLUSTER_SIZE_NAMES)[number]) < checked ? 'ArrowLeft' : 'ArrowRight';
  await pressUntil(page, key, () => wanted.isChecked());
  const slider = scope.getByRole('slider');
  await slider.focus();
  const now = Number(await slider.getAttribute('aria-valuenow'));
  await pressUntil(
    page,
    engines < now ? 'ArrowLeft' : 'ArrowRight',
    async () => Number(await slider.getAttribute('aria-valuenow')) === engines,
  );
}

test('a customer reads the price and runway of an S × 2 cluster before creating it, then resizes it online to L × 4', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signUpThroughTheUi(page, `sizes.${Date.now()}@example.com`, 'Ada Lovelace');
  await createSubscription(page);
  await fundByCard(page);

  await page.goto('/clusters');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New Cluster' });
  await fillClusterDialog(page, dialog, 'Shaped-One');
  await turnOffAutoStop(page, dialog);

  // M × 5 unless chosen; S × 2 chosen by keyboard, its price and runway shown before anything is created.
  await expect(dialog.getByRole('radio', { name: 'M', exact: true })).toBeChecked();
  await chooseShape(page, dialog, 'S', 2);
  await expect(dialog.getByText('Query engines: 2')).toBeVisible();
  await expect(dialog.getByText('r6i.2xlarge: 8 cores, 64 GiB each')).toBeVisible();
  await expect(dialog.getByTestId('shape-price')).toHaveText(PRICE);
  await expect(dialog.getByTestId('shape-price')).toContainText('S × 2:');
  await checkAtBothWidths(page, dialog, 'the create form with a size');

  await dialog.getByRole('button', { name: 'Review and Deploy' }).click();
  const review = page.getByRole('dialog', { name: 'Review Cluster' });
  await expect(review.getByTestId('shape-price').filter({ visible: true })).toContainText('S × 2:');
  await review.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/clusters\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
  await expect(status(page)).toHaveText(/Online/i, CHANGE);
  await expect(page.getByRole('group', { name: 'Capacity' })).toContainText(capacityLabel(2));
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(queryEngineRows(page)).toHaveCount(2);
  await expect(queryEngineRows(page).first()).toContainText('r6i.2xlarge');

  // Resized while online: the current and proposed shapes side by side with their prices, then the engines follow.
  await page.getByRole('button', { name: 'Resize', exact: true }).click();
  const resize = page.getByRole('dialog', { name: 'Resize cluster' });
  await expect(resize.getByTestId('resize-current')).toContainText('S × 2');
  await chooseShape(page, resize, 'L', 4);
  await expect(resize.getByTestId('resize-proposed')).toContainText('L × 4');
  await expect(resize.getByTestId('resize-proposed')).toContainText(/\$[\d,.]+ per hour/);
  const proposedHourly = (await resize.getByTestId('resize-proposed').innerText()).match(/\$[\d,.]+(?= per hour)/)![0];
  await checkAtBothWidths(page, resize, 'the resize dialog');
  await resize.getByRole('button', { name: 'Resize', exact: true }).click();
  await expect(page.getByText(CLUSTER_SIZE_MESSAGES.resizeStarted)).toBeVisible();

  await expect(async () => {
    await page.reload();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(queryEngineRows(page)).toHaveCount(4, { timeout: 5_000 });
    await expect(page.getByRole('group', { name: 'Capacity' })).toContainText(capacityLabel(4), { timeout: 1_000 });
  }).toPass(CHANGE);
  await expect(queryEngineRows(page).first()).toContainText('r6i.8xlarge');
  await expect(status(page)).toHaveText(/Online/i);

  // The charges follow the shape that runs: the cluster's cost per hour is the proposed shape's price the dialog showed,
  // and its actual cost keeps growing at it (every hour exactly is held to the core-minutes by the API tests).
  await page.getByRole('tab', { name: 'Cost Analysis' }).click();
  const costPerHour = page.getByText('Cost per hour now').locator('..');
  await expect(costPerHour).toContainText(proposedHourly, CHANGE);
  const actualCost = page.getByText('Actual cost').locator('..');
  const costNow = async () => Number((await actualCost.innerText()).replace(/[^\d.]/g, '') || 0);
  const before = await costNow();
  await expect(async () => {
    await page.reload();
    await page.getByRole('tab', { name: 'Cost Analysis' }).click();
    expect(await costNow()).toBeGreaterThan(before);
  }).toPass({ timeout: 150_000, intervals: [10_000] });

  // The audit log names the move and who made it.
  await page.getByRole('tab', { name: 'Audit Logs' }).click();
  await expect(page.getByText(/Shaped-One resized from S × 2 to L × 4 by sizes\.\d+@example\.com/).first()).toBeVisible(CHANGE);
  await checkAtBothWidths(page, page.getByRole('tabpanel', { name: 'Audit Logs' }), 'the audit log after a resize');
});

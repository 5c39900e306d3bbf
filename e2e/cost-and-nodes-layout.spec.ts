import { expect, test, type Page } from '@playwright/test';
import { shownColorScheme } from './support/a11y.js';
import { notClipped, pageDoesNotScrollSideways, withinViewport } from './support/layout.js';
import { createSubscription, deployCluster, signUpThroughTheUi } from './support/flows.js';

// A customer's cost overview and a cluster's node views at a 1366 px laptop and a 390 px phone, in both colour
// schemes: the actual cost and the forecast stay on screen, every node status reads in full ("Running", never
// "Runni…"), and the weekly schedule fits.

const VIEWS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
].flatMap((viewport) => (['light', 'dark'] as const).map((colorScheme) => ({ viewport, colorScheme })));

async function showAs(page: Page, view: (typeof VIEWS)[number]): Promise<string> {
  await page.setViewportSize(view.viewport);
  await page.emulateMedia({ colorScheme: view.colorScheme });
  await expect.poll(() => shownColorScheme(page)).toBe(view.colorScheme);
  return `${view.viewport.width} px, ${view.colorScheme}`;
}

test('at 1366 and 390 px, light and dark: the cost overview shows actual cost and forecast, node statuses read in full, the schedule fits', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUpThroughTheUi(page, `cost-layout.${Date.now()}@example.com`, 'Katherine Johnson');
  await createSubscription(page);
  await createSubscription(page, 'Reporting');
  await deployCluster(page, 'Layout-Nodes');
  const clusterUrl = page.url();
  await page.getByRole('tab', { name: 'Overview' }).click();
  const nodes = page.getByRole('table', { name: 'Nodes' });
  await expect(nodes.getByText('Running', { exact: true }).first()).toBeVisible({ timeout: 60_000 });

  for (const view of VIEWS) {
    await page.goto('/cost-analysis');
    const label = await showAs(page, view);
    const overview = page.getByRole('table', { name: /^Cost of each subscription/ });
    await expect(overview).toBeVisible();
    await pageDoesNotScrollSideways(page, `/cost-analysis at ${label}`);
    const row = overview.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Analytics' }) });
    const total = overview.locator('tfoot tr');
    for (const [name, cells] of [
      ['Analytics', row.locator('td')],
      ['Total', total.locator('td')],
    ] as const) {
      // Actual cost, Forecast and Balance, each drawn whole on the screen.
      await expect(cells).toHaveCount(3);
      for (const [index, column] of ['Actual cost', 'Forecast', 'Balance'].entries()) {
        const cell = cells.nth(index);
        await expect(cell).toBeVisible();
        await expect(cell).toHaveText(/\$|--/);
        await withinViewport(page, cell, `${name}'s ${column} at ${label}`);
      }
    }
    if (view.viewport.width < 400) {
      // A phone names each value, since the header row is not shown.
      const actual = await row
        .locator('td')
        .first()
        .evaluate((cell) => getComputedStyle(cell, '::before').content);
      expect(actual).toBe('"Actual cost"');
    }
    await page.screenshot({ path: `test-results/screens/cost-overview-${view.viewport.width}-${view.colorScheme}.png`, fullPage: true });

    await page.goto(clusterUrl);
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(nodes).toBeVisible();
    await pageDoesNotScrollSideways(page, `the cluster's Overview at ${label}`);
    const statuses = nodes.locator('tbody td .mantine-Badge-label');
    expect(await statuses.count(), 'node and service statuses shown').toBeGreaterThan(0);
    for (const status of await statuses.all()) {
      await notClipped(status, `a node status at ${label}`);
      await withinViewport(page, status, `a node status at ${label}`);
    }
    // The weekly schedule fits the screen: its table and every start and stop field are drawn whole, nothing cut at
    // the viewport's edge nor hidden in a sideways scroll.
    const schedule = page.getByRole('table', { name: 'Weekly schedule' });
    await expect(schedule).toBeVisible();
    await withinViewport(page, schedule, `the weekly schedule at ${label}`);
    const times = schedule.locator('input');
    await expect(times).toHaveCount(14);
    for (const time of await times.all()) {
      await withinViewport(page, time, `${await time.getAttribute('aria-label')} at ${label}`);
    }
    // Nor cut off by the box the table would scroll in (its nearest ancestor that clips sideways).
    const cut = await schedule.evaluate((table) => {
      let box = table.parentElement;
      while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
      const edge = box ? box.getBoundingClientRect().right : window.innerWidth;
      return Array.from(table.querySelectorAll('input'))
        .filter((input) => input.getBoundingClientRect().right > edge + 0.5)
        .map((input) => input.getAttribute('aria-label'));
    });
    expect(cut, `schedule fields cut off at ${label}`).toEqual([]);
    await page.screenshot({ path: `test-results/screens/cluster-nodes-${view.viewport.width}-${view.colorScheme}.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Deployment Details' }).click();
    const configuration = page.getByRole('table', { name: 'Configuration' });
    await expect(configuration).toBeVisible();
    await pageDoesNotScrollSideways(page, `the cluster's Deployment Details at ${label}`);
    for (const cell of await configuration.locator('tbody td').all()) {
      await withinViewport(page, cell, `a configuration value at ${label}`);
    }
  }
});

import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, shownColorScheme } from './support/a11y.js';
import { createSubscription, deployCluster, signUpThroughTheUi } from './support/flows.js';
import { notClipped, pageDoesNotScrollSideways, withinBox, withinViewport } from './support/layout.js';

// Home at a 1366 px laptop and a 390 px phone, in both colour schemes: a subscription with a long name and a
// running cluster (so its card says how long the balance lasts) must show its card whole, its actions button
// in sight, and the clusters table with the spec's columns, without the page or the card scrolling sideways.

const VIEWPORTS = [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const SUBSCRIPTION = 'Marketing Attribution Experiments';
const CLUSTER = 'Attribution-Models';

async function checkHome(page: Page, label: string): Promise<void> {
  await pageDoesNotScrollSideways(page, label);

  // The card, its runway line and its actions button are drawn whole inside the Subscriptions section.
  const section = page.getByRole('region', { name: 'Subscriptions' });
  const list = section.getByRole('list', { name: 'Subscription balances' });
  const card = list.getByRole('listitem', { name: SUBSCRIPTION });
  const runway = card.getByText(/^Lasts .* at the current rate$/);
  await expect(runway).toBeVisible();
  await notClipped(section, `${label}: subscriptions section`);
  await notClipped(card, `${label}: subscription card`);
  await withinBox(card, section, `${label}: subscription card`);
  await withinBox(runway, section, `${label}: runway text`);
  await notClipped(runway, `${label}: runway text`);
  const actions = card.getByRole('button', { name: `Actions for ${SUBSCRIPTION}` });
  await withinBox(actions, section, `${label}: subscription actions`);
  await withinViewport(page, actions, `${label}: subscription actions`);
  // Nothing inside the section scrolls sideways.
  const wide = await section.evaluate((element) =>
    Array.from(element.querySelectorAll('*'))
      .filter((inner) => inner.scrollWidth > inner.clientWidth + 1 && getComputedStyle(inner).overflowX !== 'visible')
      .filter((inner) => !(inner instanceof HTMLElement && getComputedStyle(inner).textOverflow === 'ellipsis'))
      .map((inner) => inner.className || inner.tagName),
  );
  expect(wide, `${label}: boxes scrolling sideways in the subscriptions section`).toEqual([]);

  // The spec's columns (section 2, Tables), and every cell of the row on screen.
  const table = page.getByRole('table', { name: 'Clusters' });
  const headers = await table.locator('thead th').allTextContents();
  expect(headers.slice(0, 6), `${label}: columns`).toEqual(['Name', 'Status', 'QE capacity', 'Region', 'Subscription', 'Deployed on']);
  const row = table.locator('tbody tr').filter({ hasText: CLUSTER });
  await expect(row.locator('td[data-label="Region"]')).toHaveText('us-east-1');
  await expect(row.locator('td[data-label="Subscription"]')).toHaveText(SUBSCRIPTION);
  await expect(row.locator('td[data-label="Deployed on"]')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4} \d{1,2}:\d{2} [AP]M$/);
  await expect(row.getByRole('img', { name: /^Capacity \d of 5$/ })).toBeVisible();
  for (const column of ['Name', 'Status', 'QE capacity', 'Region', 'Subscription', 'Deployed on', 'Actions']) {
    await withinViewport(page, row.locator(`td[data-label="${column}"]`), `${label}: cluster ${column}`);
  }
  await withinViewport(page, row.getByRole('button', { name: `Actions for ${CLUSTER}` }), `${label}: cluster actions`);
  await notClipped(page.getByRole('region', { name: 'Clusters' }), `${label}: clusters section`);
}

test('home at 1366 and 390 px, light and dark: subscription cards whole, actions in sight, the clusters table with its columns', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUpThroughTheUi(page, `home.${Date.now()}@example.com`, 'Ada Lovelace');
  await createSubscription(page, SUBSCRIPTION);
  await deployCluster(page, CLUSTER);
  await expect(page.getByRole('group', { name: 'Status' }).locator('[data-status]')).toHaveText('Online', { timeout: 40_000 });

  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/');
    await expect(page.getByRole('table', { name: 'Clusters' }).getByText(CLUSTER)).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => shownColorScheme(page)).toBe(scheme);
      const label = `home at ${viewport.width} px (${scheme})`;
      await checkHome(page, label);
      await expectNoSeriousA11yViolations(page, label);
      await page.screenshot({ path: `test-results/screens/home-${viewport.name}-${scheme}.png`, fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }
});

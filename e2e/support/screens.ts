import { expect, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, shownColorScheme } from './a11y.js';
import { pageDoesNotScrollSideways } from './layout.js';

const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;

/**
 * Looks at `shot` as a user would at the laptop's and the phone's width, in the light and the dark scheme: the page
 * does not scroll sideways, axe finds nothing serious, and a screenshot of each is kept under test-results/screens.
 * `atEachWidth` checks more once the layout of a width has settled. Leaves the page light at 1366 px.
 */
export async function checkAtBothWidths(
  page: Page,
  shot: Locator,
  name: string,
  atEachWidth?: (width: number) => Promise<void>,
): Promise<void> {
  for (const { width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => shownColorScheme(page)).toBe(scheme);
      const label = `${name} at ${width} px in the ${scheme} scheme`;
      await shot.scrollIntoViewIfNeeded();
      await pageDoesNotScrollSideways(page, label);
      if (scheme === 'light') await atEachWidth?.(width);
      await expectNoSeriousA11yViolations(page, label);
      await shot.screenshot({ path: `test-results/screens/${name.replace(/\W+/g, '-')}-${width}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1366, height: 900 });
}

import { expect, type Page } from '@playwright/test';

/** The page is no wider than the viewport: wide content scrolls inside its own box, not the whole page. */
export async function pageDoesNotScrollSideways(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label}: page width`).toBeLessThanOrEqual(innerWidth);
}

import { expect, type Locator, type Page } from '@playwright/test';

/** The page is no wider than the viewport: wide content scrolls inside its own box, not the whole page. */
export async function pageDoesNotScrollSideways(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${label}: page width`).toBeLessThanOrEqual(innerWidth);
}

/** The element is drawn whole inside the viewport's width (not cut by it). */
export async function withinViewport(page: Page, locator: Locator, label: string): Promise<void> {
  const box = await locator.boundingBox();
  expect(box, `${label}: drawn`).not.toBeNull();
  const width = page.viewportSize()!.width;
  expect(box!.x, `${label}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${label}: right edge`).toBeLessThanOrEqual(width);
}

/** The element's content is not wider than its own box (no clipped text, no sideways scrollbar). */
export async function notClipped(locator: Locator, label: string): Promise<void> {
  const { scrollWidth, clientWidth } = await locator.evaluate((element) => ({
    scrollWidth: element.scrollWidth,
    clientWidth: element.clientWidth,
  }));
  expect(scrollWidth, `${label}: content wider than its box`).toBeLessThanOrEqual(clientWidth + 1);
}

/** `inner` is drawn whole inside the box of `outer` (and the part of `outer` its scrolling shows). */
export async function withinBox(inner: Locator, outer: Locator, label: string): Promise<void> {
  const [a, b] = [await inner.boundingBox(), await outer.boundingBox()];
  expect(a, `${label}: drawn`).not.toBeNull();
  expect(b, `${label}: container drawn`).not.toBeNull();
  expect(a!.x, `${label}: left edge`).toBeGreaterThanOrEqual(b!.x - 0.5);
  expect(a!.x + a!.width, `${label}: right edge`).toBeLessThanOrEqual(b!.x + b!.width + 0.5);
}

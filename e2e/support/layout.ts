import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The page is no wider than the viewport: wide content scrolls inside its own box, not the whole page. Polled: right
 * after a resize the console still has the layout of the old width until it renders for the new one.
 */
export async function pageDoesNotScrollSideways(page: Page, label: string): Promise<void> {
  await expect(async () => {
    const { overflow, widest } = await page.evaluate(() => {
      // The elements drawn past the right edge, deepest first, so a failure names what to wrap.
      const past = Array.from(document.body.querySelectorAll('*')).filter(
        (element) => element.getBoundingClientRect().right > window.innerWidth,
      );
      const leaves = past.filter((element) => !past.some((other) => other !== element && element.contains(other)));
      return {
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        widest: leaves
          .slice(0, 5)
          .map((element) => `<${element.tagName.toLowerCase()}> "${(element.textContent ?? '').trim().slice(0, 60)}"`),
      };
    });
    expect(overflow, `${label}: page wider than the viewport (past the edge: ${widest.join(', ')})`).toBeLessThanOrEqual(0);
  }).toPass({ timeout: 5_000 });
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

import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The WCAG 2.2 A and AA rules and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/**
 * Landmark rules axe rates only "moderate" that the portal holds to anyway: one <main> on every page, and
 * no second banner (a dialog's <header> outside any landmark reads as one).
 */
const ALSO_FAILING = ['landmark-one-main', 'landmark-no-duplicate-banner', 'landmark-no-duplicate-main', 'landmark-unique'];

/** Waits until no finite animation runs (a dialog fading in would be measured half transparent). */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
}

/**
 * Runs axe on the page as it is now (open dialogs and menus included) and fails on any serious or critical
 * violation, and on the landmark rules above. `label` names the page and state in the failure message.
 */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const failing = violations
    .filter(({ id, impact }) => impact === 'serious' || impact === 'critical' || ALSO_FAILING.includes(id))
    .map(({ id, impact, help, nodes }) => ({
      rule: `${id} (${impact}): ${help}`,
      nodes: nodes.slice(0, 5).map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1).join(' ').trim()}`),
    }));
  expect(failing, `accessibility violations on ${label}`).toEqual([]);
}

/** The colour scheme the page shows now, as Mantine set it on <html>. */
export function shownColorScheme(page: Page): Promise<string | null> {
  return page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
}

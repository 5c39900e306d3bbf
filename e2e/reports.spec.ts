import { expect, test } from '@playwright/test';
import { createSubscription, signUpThroughTheUi } from './support/flows.js';

test('the Reports page shows the printable report in its frame', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/frame-ancestors|Refused to frame/i.test(message.text())) refused.push(message.text());
  });
  await signUpThroughTheUi(page, `reports.${Date.now()}@example.com`, 'Rhea Reports');
  await createSubscription(page, 'Reported');
  await page.goto('/reports');
  const report = page.frameLocator('iframe[title="Subscription report"]');
  await expect(report.getByRole('heading', { level: 1 })).toContainText('subscription report');
  await expect(report.getByRole('heading', { name: 'Reported' })).toBeVisible();
  expect(refused).toEqual([]);
});

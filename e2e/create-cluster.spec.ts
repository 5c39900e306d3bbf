import { expect, test } from '@playwright/test';
import { CLUSTER_MESSAGES } from '@kumo/contract';
import { createSubscription, signUpThroughTheUi } from './support/flows.js';

// One press of Review and Deploy on an empty form names every missing field at once and puts the focus on the
// first, so nobody has to press it again to find out what else is wrong.

test('one press of Review and Deploy on an empty form shows all five errors and focuses the first field', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpThroughTheUi(page, `create.${Date.now()}@example.com`, 'Ada Lovelace');
  await createSubscription(page);
  await page.goto('/clusters');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New Cluster' });
  await expect(dialog.getByRole('status').filter({ hasText: 'Balance' })).toHaveText('Balance: $500.00');
  // The name field has the focus as the dialog opens; the press moves the pointer away from it.
  await expect(dialog.getByLabel(/^Cluster Name/)).toBeFocused();

  await dialog.getByRole('button', { name: 'Review and Deploy', exact: true }).click();
  for (const message of [
    CLUSTER_MESSAGES.nameRequired,
    CLUSTER_MESSAGES.regionRequired,
    CLUSTER_MESSAGES.cidrRequired,
    CLUSTER_MESSAGES.passwordRequired,
    CLUSTER_MESSAGES.confirmPasswordRequired,
  ]) {
    await expect(dialog.getByText(message, { exact: true }), message).toBeVisible();
  }
  await expect(dialog.getByLabel(/^Cluster Name/)).toBeFocused();
  await expect(page.getByRole('dialog', { name: 'Review Cluster' })).toHaveCount(0);
});

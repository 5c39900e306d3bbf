import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { pdfText } from '../apps/api/test/support/pdf-text.js';
import { openAddFunds, payOnTheSandbox, signUpThroughTheUi } from './support/flows.js';

test('a customer creates a subscription, adds $1,234 by card, sees it in the history and downloads its receipt; a declined card adds nothing', async ({
  page,
}) => {
  await signUpThroughTheUi(page, `money.${Date.now()}@example.com`, 'Ada Lovelace');

  // A subscription, with the sign-up credits.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscriptions' }).click();
  await expect(page.getByText('No subscriptions yet.')).toBeVisible();
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'New Subscription' });
  await create.getByLabel(/Subscription Name/).fill('1ab');
  await expect(create.getByText('Subscription Name must start with 3 letters', { exact: false })).toBeVisible();
  await expect(create.getByRole('button', { name: 'Subscribe' })).toBeDisabled();
  await create.getByLabel(/Subscription Name/).fill('Analytics');
  await create.getByLabel('Remarks').fill('Reporting for the finance team');
  await expect(create.getByText('170 characters remaining')).toBeVisible();
  await create.getByRole('button', { name: 'Subscribe' }).click();

  await expect(page.getByRole('heading', { name: 'Analytics' })).toBeVisible();
  await expect(page).toHaveTitle('Analytics - Subscriptions | Kumo Cloud');
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Analytics');
  const balance = page.getByRole('group', { name: 'Your Balance' });
  await expect(balance).toContainText('$500.00');
  await expect(page.getByRole('group', { name: 'Free credits' })).toContainText('$500.00');
  await expect(page.getByRole('group', { name: 'Subscription Plan' })).toContainText('Prepaid');

  // $1,234 through the sandbox checkout, and back to the dialog that says so.
  await page.getByRole('group', { name: 'Your Balance' }).getByRole('button', { name: 'Add Funds' }).click();
  const addFunds = page.getByRole('dialog', { name: 'Add Funds' });
  await addFunds.getByLabel(/Amount \(USD\)/).fill('1,000,000');
  await expect(addFunds.getByText('Maximum limit for adding fund is 999,999.')).toBeVisible();
  await expect(addFunds.getByRole('button', { name: 'Proceed' })).toBeDisabled();
  await addFunds.getByLabel(/Amount \(USD\)/).fill('1,234');
  await expect(addFunds.getByText('One Thousand Two Hundred Thirty Four USD')).toBeVisible();
  await addFunds.getByRole('button', { name: 'Proceed' }).click();
  await expect(page.getByText('$1,234.00').first()).toBeVisible();
  await payOnTheSandbox(page, '4242 4242 4242 4242');

  const result = page.getByRole('dialog', { name: 'Add Funds' });
  await expect(result.getByText('Payment successful')).toBeVisible();
  await expect(result.getByText('$1,234.00 has been added to Analytics.')).toBeVisible();
  await expect(page).toHaveURL(/\/subscriptions\/[0-9a-f-]{36}$/);
  await result.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(balance).toContainText('$1,734.00');

  // At the top of the history, with a receipt.
  await page.getByRole('tab', { name: 'Transaction History' }).click();
  const history = page.getByRole('table', { name: 'Transaction history' });
  const top = history.getByRole('row').nth(1);
  await expect(top).toContainText('Purchased');
  await expect(top).toContainText('$1,234.00');
  await expect(top).toContainText('$1,734.00');
  const receiptId = (await top.getByText(/^KC-\d{8}$/).textContent()) ?? '';
  expect(receiptId).toMatch(/^KC-\d{8}$/);

  await top.getByRole('button', { name: /^Receipt menu for/ }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Download Receipt' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^[0-9a-f-]{36}\.pdf$/);
  const pdf = await readFile(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(pdf);
  expect(text).toContain('$1,234.00');
  expect(text).toContain(receiptId);
  expect(text).toContain(download.suggestedFilename().replace('.pdf', ''));

  // A declined card: the provider says why, the portal credits nothing and says so too.
  await openAddFunds(page, '250');
  await payOnTheSandbox(page, '4000 0000 0000 0002');
  await expect(page.getByRole('alert')).toContainText('Your card was declined.');
  await page.getByRole('button', { name: 'Cancel' }).click();
  const failed = page.getByRole('dialog', { name: 'Add Funds' });
  await expect(failed.getByText('Payment failed')).toBeVisible();
  await expect(failed.getByText('Your card was declined. No funds were added.')).toBeVisible();
  await failed.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(balance).toContainText('$1,734.00');
  await page.getByRole('tab', { name: 'Transaction History' }).click();
  // The declined checkout moved no money: it is listed apart from the history, which still starts with the purchase.
  const unpaid = page.getByRole('table', { name: 'Checkouts not paid' });
  await expect(unpaid.getByRole('row').nth(1)).toContainText('Failed');
  await expect(unpaid.getByRole('row').nth(1)).toContainText('$250.00');
  await expect(history.getByRole('row').nth(1)).toContainText(receiptId);
});

test('home shows each subscription with its balance and asks for funds below $100', async ({ page }) => {
  await signUpThroughTheUi(page, `home.${Date.now()}@example.com`, 'Grace Hopper');
  await page.goto('/subscriptions');
  for (const name of ['Production', 'Staging']) {
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'New Subscription' })
      .getByLabel(/Subscription Name/)
      .fill(name);
    await page.getByRole('dialog', { name: 'New Subscription' }).getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name })).toBeVisible();
  }
  await expect(page.getByRole('alert').filter({ hasText: 'minimum balance of 100' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  const cards = page.getByRole('list', { name: 'Subscription balances' }).getByRole('listitem');
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: 'Production' })).toContainText('$500.00');
  await expect(cards.filter({ hasText: 'Staging' })).toContainText('$0.00');
  await expect(page.getByRole('alert', { name: 'Minimum balance' })).toContainText(
    'To continue using services, you must maintain a minimum balance of 100. If your balance is less than 100, please add funds.',
  );
  await page.getByRole('button', { name: 'Actions for Production' }).click();
  await page.getByRole('menuitem', { name: 'Go to Subscription' }).click();
  await expect(page.getByRole('heading', { name: 'Production' })).toBeVisible();
  await expect(page).toHaveTitle('Production - Subscriptions | Kumo Cloud');
});

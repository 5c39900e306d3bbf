import { expect, type Locator, type Page } from '@playwright/test';
import { mailCount, waitForOtp } from './mail.js';

/** Signs an existing person in through the login screen with the OTP from the mail sink. */
export async function logIn(page: Page, email: string, path = '/login'): Promise<void> {
  const before = await mailCount(email);
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByLabel('One-time password').fill(await waitForOtp(email, before));
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Signs a new customer up through the sign-up screen, lands on home and closes the welcome dialog. */
export async function signUpThroughTheUi(page: Page, email: string, name: string): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Full name').fill(name);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByLabel('One-time password').fill(await waitForOtp(email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /get started/i })
    .click();
}

/** A staff member signs in through the development single sign-on provider and lands on the customers page. */
export async function staffSignIn(page: Page, email = 'staff@kumo.cloud'): Promise<void> {
  await page.goto('/admin/login');
  await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/customers/);
}

/** Picks an option of a Mantine select by its label. */
export async function choose(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Creates a subscription from the subscriptions page and lands on its details (a first one holds the sign-up credits). */
export async function createSubscription(page: Page, name = 'Analytics'): Promise<void> {
  await page.goto('/subscriptions');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'New Subscription' });
  await create.getByLabel(/Subscription Name/).fill(name);
  await create.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page).toHaveURL(/\/subscriptions\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
}

export const CLUSTER_PASSWORD = 'Str0ng!Passw0rd';

/** Fills the open create-cluster dialog with valid settings, up to its Review button. */
export async function fillClusterDialog(page: Page, dialog: Locator, name: string): Promise<void> {
  await dialog.getByLabel(/^Cluster Name/).fill(name);
  await choose(page, dialog.getByLabel(/^Region/), 'us-east-1');
  await expect(dialog.getByLabel(/^CIDR/)).toHaveValue(/^\d+\.\d+\.\d+\.\d+\/16$/);
  await dialog.getByLabel(/^Password/).fill(CLUSTER_PASSWORD);
  await dialog.getByLabel(/^Confirm Password/).fill(CLUSTER_PASSWORD);
  await expect(dialog.getByLabel(/^Kumo Version/)).not.toHaveValue('');
}

/**
 * Fills the open create dialog with auto-stop off (the form saves its choice, and 60 idle minutes pass in a second
 * here), reviews and confirms; returns on the new cluster's page.
 */
export async function deployFromDialog(page: Page, dialog: Locator, name: string): Promise<void> {
  await fillClusterDialog(page, dialog, name);
  await turnOffAutoStop(page, dialog);
  await dialog.getByRole('button', { name: 'Review and Deploy' }).click();
  const review = page.getByRole('dialog', { name: 'Review Cluster' });
  await expect(review.getByRole('group', { name: 'Cluster Name' })).toContainText(name);
  await review.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/clusters\/[0-9a-f-]{36}\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
}

/** Deploys a cluster from the clusters page's New button; returns on the new cluster's page. */
export async function deployCluster(page: Page, name: string): Promise<void> {
  await page.goto('/clusters');
  await page.getByRole('button', { name: 'New', exact: true }).click();
  await deployFromDialog(page, page.getByRole('dialog', { name: 'New Cluster' }), name);
}

/** Fills the sandbox checkout's card form and presses Pay. */
export async function payOnTheSandbox(page: Page, cardNumber: string): Promise<void> {
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_sandbox_/);
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM / YY)').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Lovelace');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

/** Opens Add Funds on the subscription's details, enters the amount and proceeds to the checkout. */
export async function openAddFunds(page: Page, amount: string): Promise<void> {
  await page.getByRole('group', { name: 'Your Balance' }).getByRole('button', { name: 'Add Funds' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Funds' });
  await dialog.getByLabel(/Amount \(USD\)/).fill(amount);
  await dialog.getByRole('button', { name: 'Proceed' }).click();
}

/**
 * Adds funds with the sandbox's test card and closes the result. At 3,600 times real time a cluster spends an hour's
 * price a second: tests whose clusters run a while add $3,000 for however slowly the machine runs them.
 */
export async function fundByCard(page: Page, amount = '3,000'): Promise<void> {
  await openAddFunds(page, amount);
  await payOnTheSandbox(page, '4242 4242 4242 4242');
  const paid = page.getByRole('dialog', { name: 'Add Funds' });
  await expect(paid.getByText('Payment successful')).toBeVisible({ timeout: 30_000 });
  await paid.getByRole('button', { name: 'Close', exact: true }).click();
}

/** Turns auto-stop off in the create form by keyboard: at 3,600 times real time an idle hour passes in a second. */
export async function turnOffAutoStop(page: Page, dialog: Locator): Promise<void> {
  const stopWhenIdle = dialog.getByRole('group', { name: 'Auto-stop' }).getByRole('switch', { name: 'Stop when idle' });
  await stopWhenIdle.focus();
  await page.keyboard.press('Space');
  await expect(stopWhenIdle).not.toBeChecked();
}

/** Presses Tab until `target` has the focus (at most `limit` times), proving it is reachable by keyboard. */
export async function tabTo(page: Page, target: Locator, limit = 20): Promise<void> {
  for (let presses = 0; presses < limit; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

import { expect, type Page } from '@playwright/test';
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

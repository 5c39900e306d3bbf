import { expect, test } from '@playwright/test';
import { waitForOtp } from './support/mail.js';

test('a new customer signs up with an e-mailed OTP and lands on home with the welcome dialog', async ({ page }) => {
  const email = `ada.${Date.now()}@example.com`;
  await page.goto('/signup');
  await expect(page).toHaveTitle('Signup | Kumo Cloud');
  await expect(page.getByText('Get $500 in free credits')).toBeVisible();

  const signUp = page.getByRole('button', { name: 'Sign Up' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await expect(signUp).toBeDisabled();
  const terms = page.getByRole('link', { name: 'Terms of Use' });
  await expect(terms).toHaveAttribute('href', '/terms-of-use');
  await expect(terms).toHaveAttribute('target', '_blank');
  await page.getByRole('checkbox').check();
  await signUp.click();

  const otpField = page.getByLabel('One-time password');
  await expect(otpField).toBeVisible();
  await expect(page.getByText(/00:5\d/)).toBeVisible();
  await otpField.fill(await waitForOtp(email));
  await page.getByRole('button', { name: 'Verify' }).click();

  await expect(page).toHaveURL(/\/$/);
  const welcome = page.getByRole('dialog');
  await expect(welcome).toBeVisible();
  await expect(welcome.getByText('Add funds to a subscription')).toBeVisible();
  await expect(welcome.getByText('Deploy clusters')).toBeVisible();
  await expect(welcome.getByText('Add users and share roles')).toBeVisible();
  await expect(page).toHaveTitle('Home | Kumo Cloud');
  await page.screenshot({ path: 'test-results/screens/home-welcome.png' });

  await welcome.getByRole('button', { name: /get started/i }).click();
  await expect(welcome).toBeHidden();
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Version 1.4.0')).toBeVisible();
});

test('a wrong OTP is shown under the field and the field is cleared', async ({ page }) => {
  const email = `grace.${Date.now()}@example.com`;
  await page.goto('/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Full name').fill('Grace Hopper');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const otp = await waitForOtp(email);
  const otpField = page.getByLabel('One-time password');
  await otpField.fill(otp === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('The OTP you entered is invalid. Please try again.')).toBeVisible();
  await expect(otpField).toHaveValue('');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByLabel('Full name')).toHaveValue('Grace Hopper');
});

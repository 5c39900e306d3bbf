import { expect, test } from '@playwright/test';
import { logIn } from './support/flows.js';

test('an unknown e-mail is told to sign up', async ({ page }) => {
  await page.goto('/login');
  const login = page.getByRole('button', { name: 'Login' });
  await expect(login).toBeDisabled();
  await page.getByLabel('Email').fill(`nobody.${Date.now()}@example.com`);
  await login.click();
  await expect(page.getByText('The email you provided is not registered with the product. Please consider signing up.')).toBeVisible();
});

test('a customer logs in, stays signed in across a reload, and logs out', async ({ page }) => {
  await logIn(page, 'owner@demo.kumo.cloud');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.reload();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/home.png' });

  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('button', { name: /Profile menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => window.localStorage.getItem('jwtToken'))).toBeNull();

  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
});

test('pages outside the portal show Page Not Found', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page Not Found')).toBeVisible();
  await expect(page).toHaveTitle('Kumo Cloud');
});

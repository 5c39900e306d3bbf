import { expect, test, type Browser, type Page } from '@playwright/test';
import { SignJWT, decodeJwt } from 'jose';
import { MESSAGES, TOKENS } from '@kumo/contract';
import { mailCount, waitForLink } from './support/mail.js';
import { deriveKey } from '../apps/api/src/lib/keys.js';
import { E2E_AUTH_SECRET } from './support/stack.js';
import { logIn, signUpThroughTheUi } from './support/flows.js';

const OWNER = 'owner@demo.kumo.cloud';

async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** An access token for the same session as `token`, signed like the portal's but expired a minute ago. */
async function expiredCopyOf(token: string): Promise<string> {
  const { sub, sid, acc, role } = decodeJwt(token);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid, acc, role })
    .setProtectedHeader({ alg: 'HS256', typ: 'access+jwt' })
    .setSubject(sub!)
    .setIssuer(TOKENS.issuer)
    .setAudience(TOKENS.audience)
    .setIssuedAt(now - TOKENS.accessTokenMinutes * 60 - 60)
    .setExpirationTime(now - 60)
    .sign(new TextEncoder().encode(deriveKey(E2E_AUTH_SECRET, 'access-tokens').toString('base64url')));
}

async function replaceAccessToken(page: Page, refreshToken?: string): Promise<void> {
  const current = await page.evaluate(() => localStorage.getItem('jwtToken'));
  const expired = await expiredCopyOf(current!);
  await page.evaluate(
    ([jwt, refresh]) => {
      localStorage.setItem('jwtToken', jwt);
      if (refresh) localStorage.setItem('refreshToken', refresh);
    },
    [expired, refreshToken] as const,
  );
}

test('a session whose access token expires mid-use refreshes once and keeps working', async ({ page }) => {
  await logIn(page, OWNER);
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('navigation', { name: 'Users' })).toBeVisible();
  await replaceAccessToken(page);

  const refreshes: string[] = [];
  const expiredAnswers: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/user/refresh-token') refreshes.push(request.url());
  });
  page.on('response', (response) => {
    if (response.status() === 401 && new URL(response.url()).pathname.startsWith('/api/')) expiredAnswers.push(response.url());
  });

  // The users screen asks for the signed-in user and the account's people at once.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 })).toBeVisible();

  expect(expiredAnswers.length).toBeGreaterThanOrEqual(2);
  expect(refreshes).toHaveLength(1);
  const stored = await page.evaluate(() => localStorage.getItem('jwtToken'));
  expect(decodeJwt(stored!).exp! * 1000).toBeGreaterThan(Date.now());
  expect(await page.evaluate(() => localStorage.getItem('userInfo'))).not.toBeNull();
});

test.describe.serial('inviting a person to an account', () => {
  const stamp = Date.now();
  const invitee = { email: `grace.${stamp}@example.com`, name: 'Grace Hopper' };
  let invitationLink = '';
  let inviteePage: Page;

  test.afterAll(async () => {
    await inviteePage?.context().close();
  });

  test('the owner invites a person by e-mail, who opens the link and lands signed in on home', async ({ page, browser }) => {
    // The person already has an account of their own.
    const ownAccount = await freshPage(browser);
    await signUpThroughTheUi(ownAccount, invitee.email, invitee.name);
    await ownAccount.context().close();
    const mailsBefore = await mailCount(invitee.email);

    await logIn(page, OWNER);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/users');
    await expect(page).toHaveTitle(/ - Users \| Kumo Cloud$/);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    const invite = dialog.getByRole('button', { name: 'Invite' });
    await expect(invite).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Email' }).fill(invitee.email);
    await dialog.getByRole('textbox', { name: 'Full name' }).click();
    // A registered person's name is filled in and locked.
    await expect(dialog.getByRole('textbox', { name: 'Full name' })).toHaveValue(invitee.name);
    await expect(dialog.getByRole('textbox', { name: 'Full name' })).not.toBeEditable();
    await expect(dialog.getByRole('radio', { name: 'Account Admin' })).toBeChecked();
    await page.screenshot({ path: 'test-results/screens/users-add-dialog.png' });
    await invite.click();
    await expect(page.getByText(MESSAGES.invitationSent)).toBeVisible();
    await expect(dialog).toBeHidden();

    invitationLink = await waitForLink(invitee.email, /\/invite\/accept\?token=/, mailsBefore);
    inviteePage = await freshPage(browser);
    await inviteePage.goto(invitationLink);
    await expect(inviteePage).toHaveURL(/\/$/);
    await expect(inviteePage.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(inviteePage.getByRole('button', { name: `${invitee.name}: Profile menu` })).toBeVisible();
    await expect(inviteePage).toHaveTitle('Home | Kumo Cloud');

    // The owner now sees the new Account Admin in the list.
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Users' })
      .getByRole('link', { name: new RegExp(invitee.name) })
      .click();
    await expect(page.getByRole('heading', { level: 2, name: invitee.name })).toBeVisible();
    await expect(page).toHaveTitle(`${invitee.name} - Users | Kumo Cloud`);
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(invitee.name);
  });

  test('the same invitation link used a second time shows the Access Expired page', async ({ browser }) => {
    const again = await freshPage(browser);
    await again.goto(invitationLink);
    await expect(again).toHaveURL(/\/invite\?error=true$/);
    await expect(again.getByText(MESSAGES.accessExpired)).toBeVisible();
    expect(await again.evaluate(() => localStorage.length)).toBe(0);
    await again.context().close();
  });

  test('the invited person switches between their own account and the one they joined', async () => {
    const page = inviteePage;
    const profileMenu = page.getByRole('button', { name: `${invitee.name}: Profile menu` });
    const activeAccount = () => page.getByRole('menu').locator('[aria-current="true"]');

    await profileMenu.click();
    await expect(activeAccount()).toContainText(OWNER);
    await expect(activeAccount()).toContainText('Account Admin');
    await page.getByRole('menuitem', { name: new RegExp(invitee.email) }).click();
    await expect(page.getByText(MESSAGES.accountSwitched)).toBeVisible();
    await expect(page).toHaveURL(/\/$/);

    await profileMenu.click();
    await expect(activeAccount()).toContainText(invitee.email);
    await expect(activeAccount()).toContainText('Account Owner');
    await expect(page.getByRole('menuitem', { name: new RegExp(invitee.email) })).toHaveCount(0);
    await page.getByRole('menuitem', { name: new RegExp(OWNER) }).click();
    await expect(page).toHaveURL(/\/$/);
    await profileMenu.click();
    await expect(activeAccount()).toContainText(OWNER);
  });
});

test('the owner sees a pending invitation, resends it (the old link dies) and revokes it (the link then shows Access Expired)', async ({
  page,
  browser,
}) => {
  const email = `pending.${Date.now()}@example.com`;
  await logIn(page, OWNER);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/users');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await dialog.getByRole('textbox', { name: 'Full name' }).fill('Penny Pending');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(dialog).toBeHidden();
  const firstLink = await waitForLink(email, /\/invite\/accept\?token=/);

  const pending = page.getByRole('region', { name: 'Pending invitations' });
  const row = pending.getByRole('listitem', { name: `Invitation to ${email}` });
  await expect(row).toContainText('Penny Pending');
  await expect(row).toContainText('Account Admin');

  const mailsBefore = await mailCount(email);
  await row.getByRole('button', { name: `Resend the invitation to ${email}` }).click();
  await expect(page.getByText(MESSAGES.invitationResent)).toBeVisible();
  const secondLink = await waitForLink(email, /\/invite\/accept\?token=/, mailsBefore);
  expect(secondLink).not.toBe(firstLink);
  const stale = await freshPage(browser);
  await stale.goto(firstLink);
  await expect(stale).toHaveURL(/\/invite\?error=true$/);
  await stale.context().close();

  await row.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke invitation' });
  await expect(confirm).toContainText(MESSAGES.revokeInvitationConfirm);
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText(MESSAGES.invitationRevoked)).toBeVisible();
  await expect(row).toHaveCount(0);

  const revoked = await freshPage(browser);
  await revoked.goto(secondLink);
  await expect(revoked).toHaveURL(/\/invite\?error=true$/);
  await expect(revoked.getByText(MESSAGES.accessExpired)).toBeVisible();
  await revoked.context().close();
});

test('a staff member whose session has expired signs in again in a pop-up and carries on', async ({ page }) => {
  await page.goto('/admin/login');
  await page.getByRole('button', { name: 'Sign in with single sign-on' }).click();
  await page.getByLabel('E-mail').fill('staff@kumo.cloud');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/customers/);
  await expect(page.getByRole('navigation', { name: 'Customers' })).toBeVisible();

  // Neither the access token nor the refresh token works any more.
  await replaceAccessToken(page, 'no-longer-valid');
  await page.reload();
  const modal = page.getByRole('dialog', { name: 'Session expired' });
  await expect(modal).toContainText(MESSAGES.sessionExpired);
  await expect(page).toHaveURL(/\/admin\/customers/);

  const popupOpened = page.waitForEvent('popup');
  await modal.getByRole('button', { name: 'Sign in again' }).click();
  const popup = await popupOpened;
  await popup.getByLabel('E-mail').fill('staff@kumo.cloud');
  const popupClosed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Sign in', exact: true }).click();
  await popupClosed;

  await expect(modal).toBeHidden();
  await expect(page.getByRole('navigation', { name: 'Customers' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).not.toBe('no-longer-valid');
});

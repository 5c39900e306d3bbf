import { expect, test, type APIRequestContext } from '@playwright/test';
import { MESSAGES } from '@kumo/contract';
import { waitForLink, waitForOtp } from './support/mail.js';

/** Signs an owner up through the API and returns headers that authorise state-changing calls. */
async function ownerWithSubscription(
  request: APIRequestContext,
  email: string,
): Promise<{ headers: Record<string, string>; subscriptionId: string }> {
  expect((await request.post('/api/user/register', { data: { email_id: email, user_name: 'Olga Owner' } })).ok()).toBe(true);
  const done = await request.post('/api/user/authenticate', { data: { email_id: email, otp: await waitForOtp(email) } });
  expect(done.ok()).toBe(true);
  const xsrf = (await request.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')!.value;
  const headers = { authorization: `Bearer ${done.headers()['jwt_token']}`, 'x-xsrf-token': xsrf };
  const created = await request.post('/api/subscription/create', {
    headers,
    data: { subscription_name: 'Team Data', remark: '', subscription_type: 'PREPAID' },
  });
  expect(created.ok()).toBe(true);
  return { headers, subscriptionId: (await created.json()).subscription_id };
}

test('a Cluster Member who accepts an invitation is sent to the Unauthorized page and can log out', async ({ page, request }) => {
  const stamp = Date.now();
  const ownerEmail = `owner.cm.${stamp}@example.com`;
  const owner = await ownerWithSubscription(request, ownerEmail);
  const memberEmail = `member.cm.${stamp}@example.com`;
  const invited = await request.post('/api/user/invite', {
    headers: owner.headers,
    data: {
      invited_user_id: memberEmail,
      invited_user_name: 'Cleo Member',
      role: 'CLUSTER_MEMBER',
      subscription_ids: [owner.subscriptionId],
    },
  });
  expect(invited.ok()).toBe(true);

  await page.goto(await waitForLink(memberEmail, /\/invite\/accept\?token=[\w-]+/));
  await expect(page).toHaveURL(/\/unauthorized-access$/);
  await expect(page.getByRole('heading', { name: '401 Unauthorized' })).toBeVisible();
  await expect(page).toHaveTitle('Unauthorized | Kumo Cloud');
  // Not a bare 401: why they are here, and whom to ask.
  await expect(page.getByText(MESSAGES.clusterMemberConsole)).toBeVisible();
  await expect(page.getByText(ownerEmail)).toBeVisible();
  await expect(page.getByText(/ask its owner/)).toBeVisible();

  // The customer area stays closed to them.
  await page.goto('/users');
  await expect(page).toHaveURL(/\/unauthorized-access$/);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('an anonymous visitor of the Unauthorized page is sent to the login', async ({ page }) => {
  await page.goto('/unauthorized-access');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('401 Unauthorized')).toHaveCount(0);
});

import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, shownColorScheme } from './support/a11y.js';
import { pageDoesNotScrollSideways } from './support/layout.js';
import { createSubscription, deployCluster, signUpThroughTheUi } from './support/flows.js';
import { E2E_BASE_URL } from './support/stack.js';

// The simulated cloud runs 3600 times faster than real time; a change reaches the status within seconds.
const CHANGE = { timeout: 40_000 };

/** A script's call: Node's fetch with the token only, no cookie and no XSRF header. */
function scriptCall(path: string, token: string): Promise<Response> {
  return fetch(`${E2E_BASE_URL}${path}`, { headers: { authorization: `Bearer ${token}` } });
}

async function clusterStatus(id: string, token: string): Promise<string> {
  const response = await scriptCall(`/api/cluster/deployment-details/status/${id}`, token);
  return ((await response.json()) as { status: string }).status;
}

/** Axe in the light and the dark scheme, with a screenshot of each at the page's current width. */
async function checkBothSchemes(page: Page, label: string): Promise<void> {
  await pageDoesNotScrollSideways(page, label);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => shownColorScheme(page)).toBe(scheme);
    await expectNoSeriousA11yViolations(page, `${label} in the ${scheme} scheme`);
    await page.screenshot({ path: `test-results/screens/${label}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('an owner creates an API token, a script stops and starts a cluster with it, and after revoking it the token gets 401', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await signUpThroughTheUi(page, `tokens.${Date.now()}@example.com`, 'Tomas Token');
  await createSubscription(page);
  await deployCluster(page, 'Scripted-One');
  const clusterId = page.url().split('/').at(-1)!;
  await expect(page.getByRole('group', { name: 'Status' }).locator('[data-status]')).toHaveText('Online', CHANGE);

  // Users → API tokens: create a WRITE token and read its secret, shown once.
  await page.goto('/users');
  const section = page.getByRole('region', { name: 'API tokens' });
  await expect(section.getByText('You have no API tokens in this account.')).toBeVisible();
  await section.getByRole('button', { name: 'Create token' }).click();
  const form = page.getByRole('dialog', { name: 'Create API token' });
  await form.getByRole('textbox', { name: /Name/ }).fill('office-hours');
  await form.getByRole('radio', { name: /^Write/ }).check();
  await checkBothSchemes(page, 'api-token-create-1366');
  await form.getByRole('button', { name: 'Create token' }).click();
  const shown = page.getByRole('dialog', { name: 'Copy your API token' });
  await expect(shown.getByRole('button', { name: 'Copy token' })).toBeVisible();
  const token = (await shown.getByLabel('API token').textContent())!.trim();
  expect(token).toMatch(/^kumo_pat_[0-9A-Za-z]{43}$/);
  await checkBothSchemes(page, 'api-token-secret-1366');
  await shown.getByRole('button', { name: 'Done' }).click();
  const row = section.getByRole('listitem', { name: 'API token office-hours' });
  await expect(row).toContainText('Never used');

  // A script stops the cluster and starts it again with the token alone.
  const stop = await scriptCall(`/api/cluster/stop/${clusterId}`, token);
  expect(stop.status, await stop.clone().text()).toBe(200);
  await expect.poll(() => clusterStatus(clusterId, token), CHANGE).toBe('OFFLINE');
  const start = await scriptCall(`/api/cluster/start/${clusterId}`, token);
  expect(start.status, await start.clone().text()).toBe(200);
  await expect.poll(() => clusterStatus(clusterId, token), CHANGE).toBe('ONLINE');

  // The list shows the use; the screen holds at a phone's width too.
  await page.reload();
  await expect(row).toContainText('Last used', CHANGE);
  await checkBothSchemes(page, 'api-tokens-list-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await checkBothSchemes(page, 'api-tokens-list-390');

  // Revoked after a confirmation, the token is refused from the next call on.
  await row.getByRole('button', { name: 'Revoke the API token office-hours' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke API token' });
  await checkBothSchemes(page, 'api-token-revoke-390');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toBeHidden();
  expect((await scriptCall(`/api/cluster/stop/${clusterId}`, token)).status).toBe(401);
});

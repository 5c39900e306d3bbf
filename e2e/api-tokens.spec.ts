import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { WEBHOOK_MESSAGES } from '@kumo/contract';
import { expectNoSeriousA11yViolations, shownColorScheme } from './support/a11y.js';
import { pageDoesNotScrollSideways } from './support/layout.js';
import { createSubscription, deployCluster, signUpThroughTheUi, tabTo } from './support/flows.js';
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

/** An endpoint of the customer's own: answers 204 and keeps each delivery's headers and raw body. */
async function startReceiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/kumo-events`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Checks `Kumo-Signature: t=…,v1=…` as a receiver would: HMAC-SHA256 of "<t>.<raw body>" under the secret. */
function signatureVerifies(header: string | undefined, body: string, secret: string): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=') as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

test('an owner adds a webhook by keyboard, copies its secret once, sends a test event the receiver can verify, and deletes it', async ({
  page,
}) => {
  // Axe in two schemes at two widths takes most of it; the flow alone is well under a minute.
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  try {
    await page.setViewportSize({ width: 1366, height: 768 });
    await signUpThroughTheUi(page, `webhooks.${Date.now()}@example.com`, 'Wanda Webhook');
    await page.goto('/users');
    const section = page.getByRole('region', { name: 'Webhooks' });
    // The Users page's first load fetches its chunk and six lists; on a busy machine that alone can take ten seconds.
    await expect(section.getByText('This account sends its events to no endpoint yet.')).toBeVisible({ timeout: 30_000 });

    // The form by keyboard, from the control before the section's own.
    await page.getByRole('button', { name: 'Create token' }).focus();
    const add = section.getByRole('button', { name: 'Add endpoint' });
    await tabTo(page, add);
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'Add webhook endpoint' });
    await tabTo(page, form.getByRole('textbox', { name: /Endpoint URL/ }));
    await page.keyboard.type(receiver.url);
    await tabTo(page, form.getByRole('checkbox', { name: 'Cluster status changed' }));
    await page.keyboard.press('Space');
    await tabTo(page, form.getByRole('checkbox', { name: 'Free credits expiring' }));
    await page.keyboard.press('Space');
    await checkBothSchemes(page, 'webhook-add-1366');
    await tabTo(page, form.getByRole('button', { name: 'Add endpoint' }));
    await page.keyboard.press('Enter');

    const shown = page.getByRole('dialog', { name: 'Copy your signing secret' });
    await expect(shown.getByText(/will not show it again/)).toBeVisible();
    await expect(shown.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    const secret = (await shown.getByLabel('Signing secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    await page.screenshot({ path: 'test-results/screens/webhook-secret-1366.png', fullPage: true });
    await tabTo(page, shown.getByRole('button', { name: 'Done' }));
    await page.keyboard.press('Enter');
    await expect(shown).toBeHidden();
    await expect(page.getByText(secret)).toHaveCount(0);

    // A test event reaches the receiver, signed with the secret, and the list follows it to Delivered.
    const row = section.getByRole('listitem', { name: `Webhook ${receiver.url}` });
    await expect(row).toContainText('Cluster status changed · Free credits expiring');
    await tabTo(page, row.getByRole('button', { name: `Send test event to ${receiver.url}` }));
    await page.keyboard.press('Enter');
    await expect(page.getByText(WEBHOOK_MESSAGES.testQueued)).toBeVisible();
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
    const [delivery] = receiver.received;
    expect((JSON.parse(delivery!.body) as { type: string }).type).toBe('webhook.test');
    expect(signatureVerifies(delivery!.headers['kumo-signature'] as string | undefined, delivery!.body, secret)).toBe(true);
    expect(signatureVerifies(delivery!.headers['kumo-signature'] as string | undefined, delivery!.body, `${secret}0`)).toBe(false);
    const sent = row.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Test event' }) });
    await expect(sent).toContainText('Delivered', { timeout: 20_000 });
    await expect(sent).toContainText('HTTP 204');
    await checkBothSchemes(page, 'webhooks-list-1366');

    // At a phone's width: the list, the form and the confirmation.
    await page.setViewportSize({ width: 390, height: 844 });
    await checkBothSchemes(page, 'webhooks-list-390');
    await add.click();
    await expect(form).toBeVisible();
    await checkBothSchemes(page, 'webhook-add-390');
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();

    // Deleted after a confirmation, by keyboard.
    await tabTo(page, row.getByRole('button', { name: `Delete the webhook ${receiver.url}` }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: 'Delete webhook' });
    await expect(confirm).toContainText(receiver.url);
    await page.screenshot({ path: 'test-results/screens/webhook-delete-390.png', fullPage: true });
    await tabTo(page, confirm.getByRole('button', { name: 'Delete' }));
    await page.keyboard.press('Enter');
    await expect(page.getByText(WEBHOOK_MESSAGES.deleted)).toBeVisible();
    await expect(section.getByText('This account sends its events to no endpoint yet.')).toBeVisible();
  } finally {
    await receiver.close();
  }
});

// The README's screenshots (docs/screenshots/): the seeded demo's home, a cluster and the cost analysis, in the light
// and the dark colour scheme, at 1366 x 768. Starts the portal on its embedded default with a fresh data folder (so the
// demo account is seeded as a newcomer's first `npm start` sees it), signs in as the demo owner with the one-time
// password from the dev mailbox, and writes the PNGs.
//
//   node scripts/screenshots.mjs        (builds first when a source changed; SCREENSHOT_PORT moves the port)
/* global document -- settle() runs its check inside the page */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const PORT = Number(process.env.SCREENSHOT_PORT ?? 8199);
const BASE = `http://127.0.0.1:${PORT}`;
const OWNER = 'owner@demo.kumo.cloud';
const CLUSTER = 'Sales-Analytics';
const OUT = 'docs/screenshots';
const VIEWPORT = { width: 1366, height: 768 };

execFileSync('node', ['scripts/build-if-changed.mjs'], { stdio: 'inherit' });

const dataDir = mkdtempSync(join(tmpdir(), 'kumo-screens-'));
const portal = spawn('node', ['apps/api/dist/main.js'], {
  env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', PUBLIC_URL: BASE, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});

try {
  await waitUntilReady();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    for (const scheme of ['light', 'dark']) await shoot(browser, scheme);
  } finally {
    await browser.close();
  }
} finally {
  portal.kill('SIGTERM');
  await new Promise((resolve) => (portal.exitCode !== null ? resolve() : portal.once('exit', resolve)));
  rmSync(dataDir, { recursive: true, force: true });
}

async function waitUntilReady() {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (portal.exitCode !== null) throw new Error(`the portal exited with code ${portal.exitCode}`);
    try {
      if ((await fetch(`${BASE}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the portal did not become ready within 3 minutes');
}

/** The newest one-time password mailed to the owner after `since`. */
async function otpSince(since) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const mails = await (await fetch(`${BASE}/dev/mailbox.json`)).json();
    const mail = mails.find((m) => m.to === OWNER && Date.parse(m.created_at) >= since);
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`no one-time password arrived for ${OWNER}`);
}

/** Waits until the page has settled: no request in flight, no finite animation running. */
async function settle(page) {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  await page.waitForTimeout(300);
}

async function shoot(browser, scheme) {
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: scheme });
  const page = await context.newPage();
  const suffix = scheme === 'dark' ? '-dark' : '';

  const since = Date.now() - 1_000;
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill(OWNER);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByLabel('One-time password').fill(await otpSince(since));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
  const welcome = page.getByRole('dialog').getByRole('button', { name: /get started/i });
  if (await welcome.isVisible().catch(() => false)) await welcome.click();

  await page.getByRole('cell', { name: CLUSTER, exact: true }).waitFor();
  await settle(page);
  await page.screenshot({ path: `${OUT}/home${suffix}.png` });

  await page.goto(`${BASE}/clusters`);
  await page.getByRole('link', { name: CLUSTER }).first().click();
  await page.getByRole('table', { name: 'Nodes' }).waitFor();
  await settle(page);
  await page.screenshot({ path: `${OUT}/cluster${suffix}.png` });

  await page.goto(`${BASE}/cost-analysis`);
  await page.getByRole('table', { name: /^Cost of each subscription/ }).waitFor();
  await settle(page);
  await page.screenshot({ path: `${OUT}/cost-analysis${suffix}.png` });

  await context.close();
  console.log(`${scheme}: ${OUT}/home${suffix}.png, cluster${suffix}.png, cost-analysis${suffix}.png`);
}

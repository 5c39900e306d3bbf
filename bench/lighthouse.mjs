// Lighthouse over the console's first screens (BENCH_MODE=lighthouse): its default mobile settings (a mid-range phone,
// simulated slow 4G and a 4x slower CPU), the performance category only. /login as a visitor, then / and /clusters
// signed in as the bench's customer (its 50 clusters), each from a cold cache.
// Chromium (/usr/bin/chromium, or CHROMIUM_PATH) is started by playwright-core with its DevTools port open, and
// Lighthouse drives that same browser, so the session the console keeps in local storage is there for it.
// Prints the performance score, FCP, LCP, TBT, CLS and the JavaScript bytes sent, per page, marking a page below the
// targets (performance 95, LCP 2.5 s, TBT 200 ms, CLS 0.1); returns how many pages were. With LIGHTHOUSE_DIR set,
// each page's full report (its long tasks, script boot-up times and layout shifts) is written there as JSON.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

const { version } = createRequire(import.meta.url)('lighthouse/package.json');
const TARGETS = { performance: 95, lcpMs: 2500, tbtMs: 200, cls: 0.1 };

/** The figures of one Lighthouse result. */
function figures(lhr) {
  const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const scripts = lhr.audits['resource-summary']?.details?.items?.find((item) => item.resourceType === 'script');
  return {
    performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcpMs: audit('first-contentful-paint'),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    jsBytes: scripts?.transferSize ?? NaN,
    jsFiles: scripts?.requestCount ?? NaN,
    finalUrl: lhr.finalDisplayedUrl,
  };
}

/** Local storage as the console leaves it after sign-in (lib/session.ts). */
async function storeSession(page, session) {
  await page.evaluate(({ jwtToken, refreshToken, user }) => {
    localStorage.setItem('jwtToken', jwtToken);
    localStorage.setItem('refreshToken', refreshToken);
    localStorage.setItem('userInfo', JSON.stringify(user));
  }, session);
}

/** Runs Lighthouse over base's /login, / and /clusters; session: { jwtToken, refreshToken, user }. */
export async function lighthouseRuns({ base, session, port = 9229 }) {
  const profile = mkdtempSync(join(tmpdir(), 'kumo-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`],
  });
  let missed = 0;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    await page.goto(`${base}/favicon.svg`);
    const pages = [
      { path: '/login', signedIn: false },
      { path: '/', signedIn: true },
      { path: '/clusters', signedIn: true },
    ];
    console.log(`\nLighthouse ${version} mobile (simulated slow 4G, 4x CPU slowdown), performance only, cold cache`);
    console.log('page         perf    FCP ms    LCP ms    TBT ms     CLS    JS sent');
    for (const { path, signedIn } of pages) {
      // The storage stays as set here (disableStorageReset); the cache is emptied so each page loads cold.
      if (signedIn) await storeSession(page, session);
      else await page.evaluate(() => localStorage.clear());
      await cdp.send('Network.clearBrowserCache');
      const result = await lighthouse(`${base}${path}`, {
        port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance'],
        disableStorageReset: true,
      });
      if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
      if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${path}: ${result.lhr.runtimeError.message}`);
      const f = figures(result.lhr);
      if (process.env.LIGHTHOUSE_DIR) {
        mkdirSync(process.env.LIGHTHOUSE_DIR, { recursive: true });
        const name = path === '/' ? 'home' : path.slice(1).replaceAll('/', '-');
        writeFileSync(join(process.env.LIGHTHOUSE_DIR, `${name}.json`), JSON.stringify(result.lhr, null, 1));
      }
      const landed = new URL(f.finalUrl).pathname;
      // /clusters opens the first cluster of the list; anything outside the page asked for is a wrong measure.
      if (landed !== path && !(path !== '/' && landed.startsWith(`${path}/`)))
        throw new Error(`${path} ended on ${landed}: the page measured is not the one asked for`);
      const ok = f.performance >= TARGETS.performance && f.lcpMs <= TARGETS.lcpMs && f.tbtMs <= TARGETS.tbtMs && f.cls <= TARGETS.cls;
      if (!ok) missed += 1;
      console.log(
        `${path.padEnd(12)} ${String(f.performance).padStart(4)} ${f.fcpMs.toFixed(0).padStart(9)} ${f.lcpMs.toFixed(0).padStart(9)}` +
          ` ${f.tbtMs.toFixed(0).padStart(9)} ${f.cls.toFixed(3).padStart(7)} ${(f.jsBytes / 1024).toFixed(1).padStart(7)} KiB` +
          ` in ${f.jsFiles} files${ok ? '' : '   below target'}`,
      );
    }
    console.log(
      `targets: performance >= ${TARGETS.performance}, LCP <= ${TARGETS.lcpMs} ms, TBT <= ${TARGETS.tbtMs} ms, CLS <= ${TARGETS.cls}`,
    );
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
  return missed;
}

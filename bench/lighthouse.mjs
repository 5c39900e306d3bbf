// Lighthouse over the console's screens (BENCH_MODE=lighthouse): its default mobile settings (a mid-range phone,
// simulated slow 4G and a 4x slower CPU), the performance category only. /login as a visitor, then /, /clusters (which
// opens the first cluster), /subscriptions, /cost-analysis and /users signed in as a customer with three months of
// history and 50 clusters on two subscriptions (bench/history-account.mjs), each from a cold cache. That customer lives
// on a portal of its own, started with the demo tool, so the other parts' account and figures stay as they were.
//   node bench/lighthouse.mjs                 starts that portal on BENCH_PORT + 2, runs, stops it
//   LIGHTHOUSE_BASE=http://127.0.0.1:8390     runs against a portal started by hand with DEV_TOOLS=mailbox,sandbox,demo
//                                             (the clusters are added once); LIGHTHOUSE_RUNS (1) runs of every page;
//                                             LIGHTHOUSE_PAGES=/,/clusters only those pages
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
import { clustersOnHistory, signInWithHistory } from './history-account.mjs';
import { apiCaller, percentile, startPortal, waitReady } from './portal.mjs';

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

/** One Lighthouse run of base + path from a cold cache, signed in with `session` or as a visitor (null). */
async function measure({ page, cdp, base, path, port, session, run }) {
  // The storage stays as set here (disableStorageReset); the cache is emptied so each page loads cold.
  if (session) await storeSession(page, session);
  else await page.evaluate(() => localStorage.clear());
  await cdp.send('Network.clearBrowserCache');
  const options = { port, logLevel: 'error', output: 'json', onlyCategories: ['performance'], disableStorageReset: true };
  let result = await lighthouse(`${base}${path}`, options);
  // A trace that Chromium failed to record (NO_NAVSTART and the like, on a loaded machine) is taken once more.
  if (result?.lhr.runtimeError) {
    await cdp.send('Network.clearBrowserCache');
    result = await lighthouse(`${base}${path}`, options);
  }
  if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
  if (result.lhr.runtimeError) throw new Error(`Lighthouse on ${path}: ${result.lhr.runtimeError.message}`);
  const f = figures(result.lhr);
  if (process.env.LIGHTHOUSE_DIR) {
    mkdirSync(process.env.LIGHTHOUSE_DIR, { recursive: true });
    const name = path === '/' ? 'home' : path.slice(1).replaceAll('/', '-');
    writeFileSync(join(process.env.LIGHTHOUSE_DIR, `${name}${run > 0 ? `-${run + 1}` : ''}.json`), JSON.stringify(result.lhr, null, 1));
  }
  const landed = new URL(f.finalUrl).pathname;
  // /clusters opens the first cluster of the list; anything outside the page asked for is a wrong measure.
  if (landed !== path && !(path !== '/' && landed.startsWith(`${path}/`)))
    throw new Error(`${path} ended on ${landed}: the page measured is not the one asked for`);
  return f;
}

/** The pages measured, in order; a signed-in page opens on the session stored before it. */
export const PAGES = [
  { path: '/login', signedIn: false },
  { path: '/', signedIn: true },
  { path: '/clusters', signedIn: true },
  { path: '/subscriptions', signedIn: true },
  { path: '/cost-analysis', signedIn: true },
  { path: '/users', signedIn: true },
];

const row = (label, f, ok) =>
  `${label.padEnd(22)} ${String(f.performance).padStart(4)} ${f.fcpMs.toFixed(0).padStart(9)} ${f.lcpMs.toFixed(0).padStart(9)}` +
  ` ${f.tbtMs.toFixed(0).padStart(9)} ${f.cls.toFixed(3).padStart(7)} ${(f.jsBytes / 1024).toFixed(1).padStart(7)} KiB` +
  ` in ${f.jsFiles} files${ok ? '' : '   below target'}`;
const meets = (f) => f.performance >= TARGETS.performance && f.lcpMs <= TARGETS.lcpMs && f.tbtMs <= TARGETS.tbtMs && f.cls <= TARGETS.cls;
/** Each figure's median over the runs of one page. */
function medians(runs) {
  const median = (key) =>
    percentile(
      runs.map((f) => f[key]).sort((a, b) => a - b),
      0.5,
    );
  return Object.fromEntries(['performance', 'fcpMs', 'lcpMs', 'tbtMs', 'cls', 'jsBytes', 'jsFiles'].map((key) => [key, median(key)]));
}

/**
 * Runs Lighthouse `runs` times over base's PAGES; session: { jwtToken, refreshToken, user }. Returns how many pages
 * missed a target (by their medians).
 */
export async function lighthouseRuns({ base, session, port = 9229, runs = 1 }) {
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
    console.log(`\nLighthouse ${version} mobile (simulated slow 4G, 4x CPU slowdown), performance only, cold cache, ${runs} run(s)`);
    console.log('page                   perf    FCP ms    LCP ms    TBT ms     CLS    JS sent');
    // LIGHTHOUSE_PAGES=/,/clusters measures only those pages.
    const only = process.env.LIGHTHOUSE_PAGES?.split(',').map((path) => path.trim());
    for (const { path, signedIn } of PAGES.filter((page) => !only || only.includes(page.path))) {
      const results = [];
      for (let run = 0; run < runs; run++) {
        const f = await measure({ page, cdp, base, path, port, session: signedIn ? session : null, run });
        results.push(f);
        console.log(row(runs > 1 ? `${path} #${run + 1}` : path, f, meets(f)));
      }
      if (runs > 1) {
        const f = medians(results);
        if (!meets(f)) missed += 1;
        console.log(row(`${path} median`, f, meets(f)));
      } else if (!meets(results[0])) missed += 1;
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

/** The stored session of the history account on base, its 50 clusters added first where they are not yet. */
async function historySession(base) {
  const signedIn = await signInWithHistory(base);
  const api = apiCaller(base, signedIn);
  const clusters = (await api.get('/api/cluster/view')).flatMap((group) => group.clusters);
  if (clusters.length < 50) await clustersOnHistory(api);
  return { jwtToken: signedIn.token, refreshToken: signedIn.refreshToken, user: await api.get('/api/user/detail') };
}

/**
 * The Lighthouse part: a portal of its own on `port` with the demo tool (the history account), its clusters, then
 * LIGHTHOUSE_RUNS runs of every page; LIGHTHOUSE_BASE measures a portal already running instead. Returns the pages
 * below target.
 */
export async function lighthouseBench({ port, devtoolsPort, runs = Number(process.env.LIGHTHOUSE_RUNS ?? 1) }) {
  const portal = process.env.LIGHTHOUSE_BASE ? null : startPortal(port, { env: { DEV_TOOLS: 'mailbox,sandbox,demo' } });
  const base = process.env.LIGHTHOUSE_BASE ?? portal.base;
  try {
    await waitReady(`${base}/readyz`);
    const session = await historySession(base);
    return await lighthouseRuns({ base, session, port: devtoolsPort, runs });
  } finally {
    await portal?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.BENCH_PORT ?? 8199) + 2;
  await lighthouseBench({ port, devtoolsPort: port + 1 });
}

// Open-loop reads: requests sent at a fixed rate whatever the answers' speed (autocannon's overallRate, latencies
// corrected for coordinated omission), so a slow answer shows as latency instead of as fewer requests sent. Each rate
// first runs GET /healthz at that rate in the same run: the baseline of what the loaded machine gives any request.
import autocannon from 'autocannon';
import { sleep } from './portal.mjs';

const DURATION = Number(process.env.BENCH_OPEN_SECONDS ?? 10);
/** Enough connections for the rate to hold while answers take up to CONNECTIONS / rate seconds. */
const CONNECTIONS = Number(process.env.BENCH_OPEN_CONNECTIONS ?? 100);
export const LIGHT_RATE = Number(process.env.BENCH_LIGHT_RATE ?? 500);
export const HEAVY_RATE = Number(process.env.BENCH_HEAVY_RATE ?? 100);
/** What a browser sends: answers above 1 KiB come back compressed, as the console gets them. */
const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

function fixedRate(url, rate, headers) {
  return autocannon({
    url,
    overallRate: rate,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { ...BROWSER_ENCODINGS, ...headers },
  });
}

/** An overloaded step leaves a queue behind it: the next one starts once /healthz answers quickly again. */
async function settle(base) {
  for (let i = 0; i < 40; i++) {
    await sleep(250);
    const start = performance.now();
    await fetch(`${base}/healthz`);
    if (performance.now() - start < 20) return;
  }
}

const row = (name, rate, result) =>
  `${name.padEnd(44)} ${String(rate).padStart(5)} ${(result.requests.total / DURATION).toFixed(0).padStart(7)}   ` +
  `${String(result.latency.p50).padStart(5)} ${String(result.latency.p99).padStart(5)} ${String(result.latency.max).padStart(6)}   ` +
  `${String(result.non2xx).padStart(6)} ${String(result.errors).padStart(6)}`;

/**
 * The console's reads at fixed rates: the light ones at LIGHT_RATE, the 50-cluster view and a month's costs at HEAVY_RATE.
 * done/s below the rate means the portal could not keep up: the latencies then include the wait.
 * Returns the number of failed answers (non-2xx or connection errors) over all steps.
 */
export async function openLoopReads({ base, readHeaders, subscriptionId }) {
  const steps = [
    { rate: LIGHT_RATE, name: 'GET /healthz (baseline)', path: '/healthz', headers: {} },
    { rate: LIGHT_RATE, name: 'GET /api/user/detail', path: '/api/user/detail' },
    { rate: LIGHT_RATE, name: 'GET /api/subscription/list', path: '/api/subscription/list' },
    { rate: HEAVY_RATE, name: 'GET /healthz (baseline)', path: '/healthz', headers: {} },
    { rate: HEAVY_RATE, name: 'GET /api/cluster/view (50 clusters)', path: '/api/cluster/view' },
    // A month's costs are rollup queries over every cluster of the subscription: a heavy read too.
    {
      rate: HEAVY_RATE,
      name: "GET credit-analysis (a subscription's month)",
      path: `/api/subscription/consumption/credit-analysis/${subscriptionId}`,
    },
  ];
  await fixedRate(`${base}/healthz`, LIGHT_RATE, {}); // warm-up, discarded
  console.log(
    `\nopen loop: fixed rates, ${DURATION} s each, ${CONNECTIONS} connections, Accept-Encoding as a browser; latencies in ms\n` +
      `${'request'.padEnd(44)} ${'rate'.padStart(5)} ${'done/s'.padStart(7)}   ${'p50'.padStart(5)} ${'p99'.padStart(5)} ${'max'.padStart(6)}   ` +
      `${'non2xx'.padStart(6)} ${'errors'.padStart(6)}`,
  );
  let failed = 0;
  for (const step of steps) {
    await settle(base);
    const result = await fixedRate(`${base}${step.path}`, step.rate, step.headers ?? readHeaders);
    failed += result.non2xx + result.errors;
    console.log(row(step.name, step.rate, result));
  }
  return failed;
}

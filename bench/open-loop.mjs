// Open-loop reads: requests sent at evenly spaced moments whatever the answers' speed, each latency counted from the
// moment its request was due (so a slow answer, or a request waiting for a free connection, shows as latency instead
// of as fewer requests sent). autocannon's overallRate is not used here: each of its connections sends its share of
// a second at the start of that second, so all of them arrive together, a burst a second rather than a constant rate.
// Each rate first runs GET /healthz at that rate in the same run: the baseline of what the loaded machine gives any
// request.
import http from 'node:http';
import { percentile, sleep } from './portal.mjs';

const DURATION = Number(process.env.BENCH_OPEN_SECONDS ?? 10);
/** Connections kept open at most: enough for the rate to hold while answers take up to CONNECTIONS / rate seconds. */
const CONNECTIONS = Number(process.env.BENCH_OPEN_CONNECTIONS ?? 100);
export const LIGHT_RATE = Number(process.env.BENCH_LIGHT_RATE ?? 500);
export const HEAVY_RATE = Number(process.env.BENCH_HEAVY_RATE ?? 100);
/** What a browser sends: answers above 1 KiB come back compressed, as the console gets them. */
const BROWSER_ENCODINGS = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** GET url at `rate` requests per second for DURATION seconds; latencies in ms, rounded as autocannon prints them. */
async function fixedRate(url, rate, headers) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const target = new URL(url);
  const total = Math.round(rate * DURATION);
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  const start = performance.now();
  await new Promise((resolve) => {
    let sent = 0;
    let settled = 0;
    const finish = () => {
      settled += 1;
      if (settled === total) resolve();
    };
    const send = (dueAt) => {
      const request = http.request(target, { agent, headers: { ...BROWSER_ENCODINGS, ...headers } }, (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - dueAt);
          if (response.statusCode < 200 || response.statusCode > 299) non2xx += 1;
          finish();
        });
      });
      request.on('error', () => {
        errors += 1;
        finish();
      });
      request.end();
    };
    // Wakes about every millisecond and sends every request whose moment has come.
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      for (; sent < due; sent++) send(start + (sent * 1000) / rate);
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const ms = (value) => Math.round(value);
  return {
    donePerSecond: latencies.length / Math.max(seconds, DURATION),
    p50: ms(percentile(latencies, 0.5)),
    p99: ms(percentile(latencies, 0.99)),
    max: ms(latencies.at(-1) ?? NaN),
    non2xx,
    errors,
  };
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
  `${name.padEnd(44)} ${String(rate).padStart(5)} ${result.donePerSecond.toFixed(0).padStart(7)}   ` +
  `${String(result.p50).padStart(5)} ${String(result.p99).padStart(5)} ${String(result.max).padStart(6)}   ` +
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
    `\nopen loop: constant arrival rates (evenly spaced, latency from when each was due), ${DURATION} s each, up to ${CONNECTIONS} connections, ` +
      `Accept-Encoding as a browser; latencies in ms\n` +
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

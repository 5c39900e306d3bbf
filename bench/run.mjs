// Load benchmark, all in one run on the embedded default (the portal's own PostgreSQL in a temp DATA_DIR).
// Start-up: milliseconds from spawning the portal to a healthy /healthz, first on a new database and then restarted on
// the same data, each next to a bare node:http server spawned at the same moment.
// Closed loop (a fixed number of connections, each sending as soon as its answer came back):
//   - a bare node:http server answering the same JSON as /healthz (the ceiling for this machine),
//   - Fastify's GET /healthz (what every request pays before any route work),
//   - GET /api/user/detail (token check + database reads),
//   - GET /api/cluster/view for an account with 50 online clusters (the simulated cloud),
//   - GET /api/subscription/list for that account (its subscriptions: the clusters' one and BENCH_EXTRA_SUBSCRIPTIONS more).
// Prints requests per second, p99 latency, and the ratios healthz/node:http and detail/healthz ("detail/bare").
// Open loop (bench/open-loop.mjs): the console's reads at fixed rates, each rate with /healthz as its baseline.
// Money writes (bench/money-writes.mjs): a burst of top-up confirmations on one subscription.
// Lighthouse (bench/lighthouse.mjs): mobile performance of /login, and signed in of the customer's screens.
// Memory (bench/memory.mjs, BENCH_MODE=memory only): 10,000 accounts and 1,000,000 ledger rows seeded by SQL, then the
// reads; the portal's resident size.
// BENCH_MODE=closed,open,money,lighthouse picks the parts (those four by default; memory goes last, its data stays).
// BENCH_DATABASE_URL=postgres://… runs the portal on that PostgreSQL instead; BENCH_MAIN=path runs another build of the portal.
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import { lighthouseBench } from './lighthouse.mjs';
import { memoryUnderData } from './memory.mjs';
import { topUpBurst } from './money-writes.mjs';
import { openLoopReads } from './open-loop.mjs';
import { apiCaller, cpuSeconds, fiftyClusters, firstAnswer, moreSubscriptions, signIn, startPortal, waitReady } from './portal.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 8199);
const NODE_PORT = PORT + 1;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODES = new Set((process.env.BENCH_MODE ?? 'closed,open,money,lighthouse').split(',').map((mode) => mode.trim()));

let portal = startPortal(PORT);
const BASE = portal.base;

/** The same answer as /healthz from plain node:http, in its own process like the portal: the start-up baseline. */
function startBareNode() {
  const spawnedAt = performance.now();
  const child = spawn(
    'node',
    [
      '-e',
      `require('node:http').createServer((request, response) => {
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify({ status: 'ok', version: '0.0.0' }));
      }).listen(${NODE_PORT}, '127.0.0.1');`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return { child, spawnedAt };
}
let bareNode = startBareNode();

/** Spawn to a healthy /healthz, next to the bare server spawned at the same moment. */
const startUpTimes = () =>
  Promise.all([firstAnswer(`${BASE}/healthz`, portal.spawnedAt), firstAnswer(`http://127.0.0.1:${NODE_PORT}/`, bareNode.spawnedAt)]);

async function load(url, headers = {}, pid = undefined) {
  const before = pid ? cpuSeconds(pid) : NaN;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  result.cpuMicrosPerRequest = ((cpuSeconds(pid) - before) / Math.max(result.requests.total, 1)) * 1e6;
  return result;
}

/** The closed-loop part; throws on any failed answer. */
async function closedLoop(readHeaders) {
  await load(`${BASE}/healthz`); // warm-up, discarded
  await load(`http://127.0.0.1:${NODE_PORT}/`); // warm-up, discarded
  // The machine is shared: node:http and /healthz alternate over a few rounds and the median round counts.
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const node = await load(`http://127.0.0.1:${NODE_PORT}/`, {}, bareNode.child.pid);
    const bare = await load(`${BASE}/healthz`, {}, portal.pid);
    rounds.push({ node, bare, ratio: bare.requests.average / node.requests.average });
  }
  rounds.sort((a, b) => a.ratio - b.ratio);
  const { node, bare } = rounds[Math.floor(rounds.length / 2)];
  const detail = await load(`${BASE}/api/user/detail`, readHeaders, portal.pid);
  const clusterView = await load(`${BASE}/api/cluster/view`, readHeaders, portal.pid);
  const subscriptionList = await load(`${BASE}/api/subscription/list`, readHeaders, portal.pid);
  for (const [name, result] of [
    ['node:http', node],
    ['healthz', bare],
    ['detail', detail],
    ['cluster view', clusterView],
    ['subscription list', subscriptionList],
  ]) {
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  const row = (name, result) =>
    `${name.padEnd(28)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p99 ${String(result.latency.p99).padStart(4)} ms   ${result.cpuMicrosPerRequest.toFixed(0).padStart(5)} µs CPU/request`;
  const ratio = (a, b) => (a.requests.average / b.requests.average).toFixed(3);
  console.log(`
closed loop: ${CONNECTIONS} connections, ${DURATION} s each (node:http and /healthz: median of ${ROUNDS} alternating rounds)`);
  console.log(row('bare node:http', node));
  console.log(row('GET /healthz (bare)', bare));
  console.log(row('GET /api/user/detail', detail));
  console.log(row('GET /api/cluster/view (50)', clusterView));
  console.log(row('GET /api/subscription/list', subscriptionList));
  console.log(
    `ratio healthz/node:http: throughput ${ratio(bare, node)} (target 0.6; rounds ${rounds.map((r) => r.ratio.toFixed(2)).join(', ')})`,
  );
  // CPU per request of the server process alone: what the ratio would be on an otherwise idle machine.
  const cpuRatio = (a, b) => (b.cpuMicrosPerRequest / a.cpuMicrosPerRequest).toFixed(3);
  console.log(
    `ratio healthz/node:http by CPU per request: ${cpuRatio(bare, node)} (median round; all: ${rounds.map((r) => cpuRatio(r.bare, r.node)).join(', ')})`,
  );
  console.log(
    `ratio detail/bare: throughput ${ratio(detail, bare)}, p99 latency ${(detail.latency.p99 / Math.max(bare.latency.p99, 1)).toFixed(2)}x`,
  );
  console.log(
    `ratio cluster view (50 clusters)/bare: throughput ${ratio(clusterView, bare)}, p99 latency ${(clusterView.latency.p99 / Math.max(bare.latency.p99, 1)).toFixed(2)}x`,
  );
}

let failed = 0;
try {
  // Start-up: from spawning `node apps/api/dist/main.js` to a healthy /healthz, next to a bare node:http server spawned
  // at the same moment (what starting any node process costs on this machine right now).
  const [portalStartMs, bareStartMs] = await startUpTimes();
  await waitReady(`${BASE}/readyz`);
  const signedIn = await signIn(BASE);
  const api = apiCaller(BASE, signedIn);
  const clustersSubscriptionId = await fiftyClusters(api);
  await moreSubscriptions(api);
  // The demo owner's own subscription, with its months of charged usage, for the cost analysis.
  const subscriptions = await api.get('/api/subscription/list');
  const demoSubscription =
    subscriptions.find((subscription) => subscription.subscription_id !== clustersSubscriptionId) ?? subscriptions[0];
  const database = process.env.BENCH_DATABASE_URL ? 'PostgreSQL at BENCH_DATABASE_URL' : 'embedded PostgreSQL (default)';
  console.log(`
${[...MODES].join(', ')} on ${database}`);
  console.log(
    `first start (a new database): portal healthy ${portalStartMs.toFixed(0)} ms after spawn (baseline: bare node:http answering after ${bareStartMs.toFixed(0)} ms)`,
  );
  if (MODES.has('closed')) await closedLoop(api.readHeaders);
  if (MODES.has('open')) {
    const subscriptionId = demoSubscription.subscription_id;
    failed += await openLoopReads({ base: BASE, readHeaders: api.readHeaders, subscriptionId });
  }
  if (MODES.has('money')) failed += await topUpBurst({ base: BASE, api });
  if (MODES.has('lighthouse')) {
    // On a portal of its own (PORT + 2) whose customer has three months of history and 50 clusters on two
    // subscriptions. Below-target pages are reported in its table; they do not count as failed answers.
    await lighthouseBench({ port: PORT + 2, devtoolsPort: PORT + 3 });
  }
  if (MODES.has('memory')) {
    failed += await memoryUnderData({ base: BASE, portal, readHeaders: api.readHeaders, subscriptionId: demoSubscription.subscription_id });
  }
  // A restart on the same data, as an operator restarts the portal: no database to create, no demo to seed.
  await portal.stop({ keepData: true });
  bareNode.child.kill('SIGTERM');
  portal = startPortal(PORT, { dataDir: portal.dataDir });
  bareNode = startBareNode();
  const [restartMs, bareRestartMs] = await startUpTimes();
  console.log(
    `restart (the same data): portal healthy ${restartMs.toFixed(0)} ms after spawn (baseline: bare node:http answering after ${bareRestartMs.toFixed(0)} ms)`,
  );
} finally {
  bareNode.child.kill('SIGTERM');
  await portal.stop();
}
if (failed > 0) {
  console.error(`\n${failed} failed answers`);
  process.exitCode = 1;
}

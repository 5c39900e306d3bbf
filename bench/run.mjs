// Load benchmark, all in one run on the embedded default (the portal's own PostgreSQL in a temp DATA_DIR):
//   - a bare node:http server answering the same JSON as /healthz (the ceiling for this machine),
//   - Fastify's GET /healthz (what every request pays before any route work),
//   - GET /api/user/detail (token check + database reads),
//   - GET /api/cluster/view for an account with 50 online clusters (the simulated cloud).
// Prints requests per second, p99 latency, and the ratios healthz/node:http and detail/healthz ("detail/bare").
// BENCH_DATABASE_URL=postgres://… runs the portal on that PostgreSQL instead; BENCH_MAIN=path runs another build of the portal.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const PORT = Number(process.env.BENCH_PORT ?? 8199);
const NODE_PORT = PORT + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const dataDir = mkdtempSync(join(tmpdir(), 'kumo-bench-'));

const server = spawn('node', [process.env.BENCH_MAIN ?? 'apps/api/dist/main.js'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    SMTP_URL: '',
    DEV_TOOLS: 'demo,mailbox',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT: '1000',
    // The simulated cloud deploys the bench's clusters in a fraction of a second.
    SIM_TIME_SCALE: '36000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const serverExit = new Promise((resolve) => server.once('exit', resolve));

// The same answer as /healthz from plain node:http, in its own process like the portal.
const bareNode = spawn(
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

async function waitReady(url) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer`);
}

async function postJson(path, body) {
  const response = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response;
}

async function signIn() {
  const email = 'owner@demo.kumo.cloud';
  await postJson('/api/user/login', { email_id: email, auth_provider: 'EMAIL_OTP_AUTH' });
  for (let i = 0; i < 50; i++) {
    const mails = await (await fetch(`${BASE}/dev/mailbox.json`)).json();
    const otp = mails.find((mail) => mail.to === email)?.text.match(/^ {4}(\d{6})\s*$/m)?.[1];
    if (otp) {
      const done = await postJson('/api/user/authenticate', { email_id: email, otp, user_name: '' });
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(done.headers.get('set-cookie') ?? '')?.[1];
      return { token: done.headers.get('jwt_token'), xsrf };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no OTP in the dev mailbox');
}

/** CPU seconds a process has used (Linux): per request it is a measure the other load on the machine hardly moves. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** A subscription with 50 clusters, all online: what the cluster list costs for a busy account. */
async function fiftyClusters({ token, xsrf }) {
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
    cookie: `XSRF-TOKEN=${xsrf}`,
    'x-xsrf-token': xsrf,
  };
  const call = async (path, body) => {
    const response = await fetch(`${BASE}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const { subscription_id } = await call('/api/subscription/create', {
    subscription_name: 'Bench',
    remark: '',
    subscription_type: 'PREPAID',
  });
  for (let i = 0; i < 50; i++) {
    await call('/api/cluster/create', {
      subscription_id,
      cluster_name: `Bench_${i}`,
      description: '',
      cloud_provider: 'AWS',
      enable_dr_flag: false,
      cidr: `10.${i}.0.0/16`,
      region: 'us-east-1',
      backup_region: null,
      password: 'Bench#Passw0rd',
      kumo_version: '2026.10.1',
    });
  }
  for (let i = 0; i < 240; i++) {
    const view = await (await fetch(`${BASE}/api/cluster/view`, { headers: { authorization: `Bearer ${token}` } })).json();
    const clusters = view.flatMap((group) => group.clusters);
    if (clusters.length === 50 && clusters.every((cluster) => cluster.status === 'ONLINE')) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the 50 bench clusters did not come online');
}

async function load(url, headers = {}, pid = undefined) {
  const before = pid ? cpuSeconds(pid) : NaN;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  result.cpuMicrosPerRequest = ((cpuSeconds(pid) - before) / Math.max(result.requests.total, 1)) * 1e6;
  return result;
}

try {
  await Promise.all([waitReady(`${BASE}/readyz`), waitReady(`http://127.0.0.1:${NODE_PORT}/`)]);
  const session = await signIn();
  const token = session.token;
  await fiftyClusters(session);
  await load(`${BASE}/healthz`); // warm-up, discarded
  await load(`http://127.0.0.1:${NODE_PORT}/`); // warm-up, discarded
  // The machine is shared: node:http and /healthz alternate over a few rounds and the median round counts.
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const node = await load(`http://127.0.0.1:${NODE_PORT}/`, {}, bareNode.pid);
    const bare = await load(`${BASE}/healthz`, {}, server.pid);
    rounds.push({ node, bare, ratio: bare.requests.average / node.requests.average });
  }
  rounds.sort((a, b) => a.ratio - b.ratio);
  const { node, bare } = rounds[Math.floor(rounds.length / 2)];
  const detail = await load(`${BASE}/api/user/detail`, { authorization: `Bearer ${token}` }, server.pid);
  const clusterView = await load(`${BASE}/api/cluster/view`, { authorization: `Bearer ${token}` }, server.pid);
  for (const [name, result] of [
    ['node:http', node],
    ['healthz', bare],
    ['detail', detail],
    ['cluster view', clusterView],
  ]) {
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  const row = (name, result) =>
    `${name.padEnd(24)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p99 ${String(result.latency.p99).padStart(4)} ms   ${result.cpuMicrosPerRequest.toFixed(0).padStart(5)} µs CPU/request`;
  const ratio = (a, b) => (a.requests.average / b.requests.average).toFixed(3);
  const database = process.env.BENCH_DATABASE_URL ? 'PostgreSQL at BENCH_DATABASE_URL' : 'embedded PostgreSQL (default)';
  console.log(
    `\n${CONNECTIONS} connections, ${DURATION} s each (node:http and /healthz: median of ${ROUNDS} alternating rounds), ${database}`,
  );
  console.log(row('bare node:http', node));
  console.log(row('GET /healthz (bare)', bare));
  console.log(row('GET /api/user/detail', detail));
  console.log(row('GET /api/cluster/view (50)', clusterView));
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
} finally {
  bareNode.kill('SIGTERM');
  // SIGTERM stops the portal and its PostgreSQL; the temp DATA_DIR goes once both are down.
  server.kill('SIGTERM');
  await serverExit;
  rmSync(dataDir, { recursive: true, force: true });
}

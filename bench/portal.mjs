// What the HTTP benches share: the portal started on the embedded default in a temp DATA_DIR, a freshly signed-up
// owner, and the account's subscriptions and clusters made through the API as the console makes them.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADD_FUNDS } from '@kumo/contract';

/** The nearest-rank percentile of sorted values: the smallest value with at least a share p of them at or below it. */
export const percentile = (sorted, p) => sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1))] ?? NaN;

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds a process has used (Linux): per request it is a measure the other load on the machine hardly moves. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Resident memory of a process in MiB (Linux). */
export function residentMiB(pid) {
  try {
    const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib ? Number(kib) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

export async function waitReady(url) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // starting
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer`);
}

/** Milliseconds from `since` (a performance.now() reading) until `url` first answers 2xx, asking every 10 ms. */
export async function firstAnswer(url, since) {
  for (;;) {
    try {
      if ((await fetch(url)).ok) return performance.now() - since;
    } catch {
      // starting
    }
    if (performance.now() - since > 60_000) throw new Error(`${url} did not answer within a minute`);
    await sleep(10);
  }
}

/**
 * The built portal (or BENCH_MAIN) on 127.0.0.1:port, on a new DATA_DIR or the given one; stop() ends it and its
 * PostgreSQL, then removes its data.
 * `nodeArgs` go to node before the portal's script (a profiler hook), `env` over the bench's own settings, `main`
 * instead of BENCH_MAIN.
 */
export function startPortal(
  port,
  {
    nodeArgs = [],
    env = {},
    main = process.env.BENCH_MAIN ?? 'apps/api/dist/main.js',
    dataDir = mkdtempSync(join(tmpdir(), 'kumo-bench-')),
  } = {},
) {
  const spawnedAt = performance.now();
  const server = spawn('node', [...nodeArgs, main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
      SMTP_URL: '',
      // A fresh customer of its own, not the demo account: its first subscription holds the sign-up credits.
      DEV_TOOLS: 'mailbox,sandbox',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000',
      // The simulated cloud deploys the bench's clusters in ten seconds. Faster, and each minute's metering run would
      // charge hundreds of billable hours per cluster: background work no real portal does, beside the reads measured.
      SIM_TIME_SCALE: '360',
      // The bench's clusters are read, never queried: at 360 times real time they would be idle-stopped within seconds.
      AUTO_STOP_DEFAULT_MINUTES: 'off',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    pid: server.pid,
    dataDir,
    /** performance.now() when the process was spawned. */
    spawnedAt,
    /** `keepData` leaves DATA_DIR for a restart on the same data. */
    async stop({ keepData = false } = {}) {
      // SIGTERM stops the portal and its PostgreSQL; the temp DATA_DIR goes once both are down.
      server.kill('SIGTERM');
      await exited;
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON without a session (sign-up, sign-in); throws with the answer when it is not 2xx. */
export async function postJson(base, path, body) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Signs up the bench's customer by OTP from the dev mailbox: { token, xsrf, refreshToken }. */
export async function signIn(base) {
  const email = 'bench@example.com';
  const name = 'Bench Owner';
  await postJson(base, '/api/user/register', { email_id: email, user_name: name, auth_provider: 'EMAIL_OTP_AUTH' });
  for (let i = 0; i < 50; i++) {
    const mails = await (await fetch(`${base}/dev/mailbox.json`)).json();
    const otp = mails.find((mail) => mail.to === email)?.text.match(/^ {4}(\d{6})\s*$/m)?.[1];
    if (otp) {
      const done = await postJson(base, '/api/user/authenticate', { email_id: email, otp, user_name: name });
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(done.headers.get('set-cookie') ?? '')?.[1];
      return { token: done.headers.get('jwt_token'), xsrf, refreshToken: done.headers.get('refresh_token') };
    }
    await sleep(100);
  }
  throw new Error('no OTP in the dev mailbox');
}

/** The signed-in caller's calls: JSON in and out, with the bearer token and the XSRF pair on writes. */
export function apiCaller(base, { token, xsrf }) {
  const headers = { authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    readHeaders: { authorization: headers.authorization },
  };
}

export async function createSubscription(api, name) {
  const { subscription_id } = await api.post('/api/subscription/create', {
    subscription_name: name,
    remark: '',
    subscription_type: 'PREPAID',
  });
  return subscription_id;
}

/** How many subscriptions without clusters the bench's account gets beside the 50 clusters' one (BENCH_EXTRA_SUBSCRIPTIONS, 4). */
const EXTRA_SUBSCRIPTIONS = Number(process.env.BENCH_EXTRA_SUBSCRIPTIONS ?? 4);

/** More subscriptions for the account, so the subscription list reads several as a busy account's does. */
export async function moreSubscriptions(api, count = EXTRA_SUBSCRIPTIONS) {
  for (let i = 0; i < count; i++) await createSubscription(api, `Bench extra ${i}`);
}

/** Pays a checkout's redirect URL at the sandbox with its test card that succeeds. */
export async function payAtSandbox(redirectUrl) {
  const response = await fetch(redirectUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      action: 'pay',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12 / 34',
      cvc: '123',
      name: 'Bench',
    }).toString(),
  });
  if (response.status !== 303) throw new Error(`sandbox pay: ${response.status} ${await response.text()}`);
}

/** The largest top-up by card, paid and confirmed: the 50 clusters then run for hours without going overdue. */
async function fundForHours(api, subscriptionId) {
  const { redirect_url } = await api.post('/api/credit/purchase', { amount: ADD_FUNDS.maxDollars, subscription_id: subscriptionId });
  await payAtSandbox(redirect_url);
  const sessionId = new URL(redirect_url).pathname.split('/').at(-1);
  const status = await api.get(`/api/credit/payment-status/${subscriptionId}?session_id=${encodeURIComponent(sessionId)}`);
  if (status.transaction_status !== 'SUCCESSFUL') throw new Error(`bench top-up: ${status.transaction_status}`);
}

/**
 * A subscription with 50 clusters, all online and funded for hours: what the cluster list costs for a busy account,
 * with no cluster stopped for an overdue balance while the reads are measured. Returns its id.
 */
export async function fiftyClusters(api) {
  const subscriptionId = await createSubscription(api, 'Bench');
  await fundForHours(api, subscriptionId);
  for (let i = 0; i < 50; i++) {
    await api.post('/api/cluster/create', {
      subscription_id: subscriptionId,
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
    const clusters = (await api.get('/api/cluster/view')).flatMap((group) => group.clusters);
    if (clusters.length === 50 && clusters.every((cluster) => cluster.status === 'ONLINE')) return subscriptionId;
    await sleep(250);
  }
  throw new Error('the 50 bench clusters did not come online');
}

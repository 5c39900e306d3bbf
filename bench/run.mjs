// Load benchmark: GET /api/user/detail (token check + database reads) against /healthz (a bare route)
// of the same server in the same run. Prints requests per second, p99 latency and their ratios.
// BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL instead of the embedded database.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const PORT = Number(process.env.BENCH_PORT ?? 8199);
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

const server = spawn('node', ['apps/api/dist/main.js'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'kumo-bench-')),
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    SMTP_URL: '',
    DEMO_DATA: 'true',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT: '1000',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

async function waitReady() {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${BASE}/readyz`)).ok) return;
    } catch {
      // starting
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('server did not start');
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
      return done.headers.get('jwt_token');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no OTP in the dev mailbox');
}

function load(path, headers = {}) {
  return autocannon({ url: `${BASE}${path}`, connections: CONNECTIONS, duration: DURATION, headers });
}

try {
  await waitReady();
  const token = await signIn();
  await load('/healthz'); // warm-up, discarded
  const bare = await load('/healthz');
  const detail = await load('/api/user/detail', { authorization: `Bearer ${token}` });
  if (detail.non2xx > 0 || bare.non2xx > 0) throw new Error(`non-2xx answers: detail ${detail.non2xx}, bare ${bare.non2xx}`);
  const row = (name, result) =>
    `${name.padEnd(22)} ${result.requests.average.toFixed(0).padStart(8)} req/s   p99 ${String(result.latency.p99).padStart(4)} ms`;
  console.log(`\n${CONNECTIONS} connections, ${DURATION} s each, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`);
  console.log(row('GET /healthz (bare)', bare));
  console.log(row('GET /api/user/detail', detail));
  console.log(
    `ratio detail/bare: throughput ${(detail.requests.average / bare.requests.average).toFixed(3)}, p99 latency ${(detail.latency.p99 / Math.max(bare.latency.p99, 1)).toFixed(2)}x`,
  );
} finally {
  server.kill('SIGTERM');
}

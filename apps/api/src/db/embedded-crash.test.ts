import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// kill -9 of the portal in the middle of money traffic: every write the portal acknowledged is there after
// the next start, which also copes with the PostgreSQL server the killed portal left running.

const main = fileURLToPath(new URL('../main.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const OWNER = 'owner@demo.kumo.cloud';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

class Portal {
  readonly base: string;
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  output = '';

  constructor(dataDir: string, port: number) {
    this.base = `http://127.0.0.1:${port}`;
    // `node --import tsx`: one process, so SIGKILL hits the portal itself and not a launcher in front of it.
    this.child = spawn(process.execPath, ['--import', 'tsx', main], {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        SMTP_URL: '',
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT: '10000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  async ready(): Promise<void> {
    let gone = false;
    void this.exited.then(() => (gone = true));
    for (let waited = 0; waited < 90_000; waited += 200) {
      if (gone) throw new Error(`the portal exited during start-up:\n${this.output}`);
      try {
        if ((await fetch(`${this.base}/readyz`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the portal did not become ready:\n${this.output}`);
  }

  kill(signal: NodeJS.Signals): Promise<number | null> {
    this.child.kill(signal);
    return this.exited;
  }
}

interface Session {
  jwt: string;
  xsrf: string;
}

async function signIn(portal: Portal): Promise<Session> {
  const json = { 'content-type': 'application/json' };
  // The mailbox lists the newest mail first and keeps earlier runs' mail: wait for one that is new.
  const mailbox = async () => (await (await fetch(`${portal.base}/dev/mailbox.json`)).json()) as { to: string; text: string }[];
  const before = (await mailbox()).length;
  const login = await fetch(`${portal.base}/api/user/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email_id: OWNER, auth_provider: 'EMAIL_OTP_AUTH' }),
  });
  expect(login.status).toBe(200);
  for (let attempt = 0; attempt < 100; attempt++) {
    const mails = await mailbox();
    const otp = mails
      .slice(0, mails.length - before)
      .find((mail) => mail.to === OWNER)
      ?.text.match(/^ {4}(\d{6})\s*$/m)?.[1];
    if (otp) {
      const done = await fetch(`${portal.base}/api/user/authenticate`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email_id: OWNER, otp, user_name: '' }),
      });
      expect(done.status).toBe(200);
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(done.headers.getSetCookie().join('\n'))?.[1] ?? '';
      return { jwt: done.headers.get('jwt_token') ?? '', xsrf };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('no OTP in the dev mailbox');
}

function api(portal: Portal, session: Session, method: 'GET' | 'POST', path: string, body?: unknown) {
  return fetch(`${portal.base}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      authorization: `Bearer ${session.jwt}`,
      cookie: `XSRF-TOKEN=${session.xsrf}`,
      'x-xsrf-token': session.xsrf,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** One sandbox card purchase end to end; resolves with what the portal acknowledged as paid. */
async function buyFunds(portal: Portal, session: Session, subscriptionId: string, amount: number) {
  const purchase = await api(portal, session, 'POST', '/api/credit/purchase', {
    amount,
    event_name: 'ADD_FUNDS',
    remark: '',
    iso_currency_code: 'USD',
    subscription_id: subscriptionId,
    category: 'PURCHASED',
  });
  if (purchase.status !== 200) throw new Error(`purchase: ${purchase.status}`);
  const checkout = new URL(((await purchase.json()) as { redirect_url: string }).redirect_url);
  const sessionId = checkout.pathname.split('/').at(-1)!;
  const paid = await fetch(`${portal.base}${checkout.pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'pay', cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', name: 'Ada Lovelace' }),
  });
  if (paid.status !== 303) throw new Error(`pay: ${paid.status}`);
  const status = await api(
    portal,
    session,
    'GET',
    `/api/credit/payment-status/${subscriptionId}?session_id=${encodeURIComponent(sessionId)}`,
  );
  if (status.status !== 200) throw new Error(`payment-status: ${status.status}`);
  const body = (await status.json()) as { transaction_id: string; transaction_status: string; amount: number };
  if (body.transaction_status !== 'SUCCESSFUL') throw new Error(`payment-status: ${body.transaction_status}`);
  return body;
}

async function balanceOf(portal: Portal, session: Session, subscriptionId: string): Promise<number> {
  const response = await api(portal, session, 'GET', `/api/subscription/details?subscription_id=${subscriptionId}`);
  return Number(((await response.json()) as { total_amount: number }).total_amount);
}

async function transactions(portal: Portal, session: Session, subscriptionId: string) {
  const all: { transaction_id: string; transaction_status: string; amount: number; category: string }[] = [];
  for (let page = 0; ; page++) {
    const response = await api(portal, session, 'GET', `/api/credit/view/credit-transactions/${subscriptionId}?page=${page}&size=20`);
    const body = (await response.json()) as { content: typeof all; totalPages: number };
    all.push(...body.content);
    if (page + 1 >= body.totalPages) return all;
  }
}

/**
 * The history with the balance it goes with. The restarted portal may still be crediting a checkout paid before the
 * kill (the payment provider's notification was queued and is worked after the start), and a credit changes the
 * history and the balance in one commit: a history read between two equal balances belongs to that balance.
 */
async function steadyHistory(portal: Portal, session: Session, subscriptionId: string) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const before = await balanceOf(portal, session, subscriptionId);
    const rows = await transactions(portal, session, subscriptionId);
    if ((await balanceOf(portal, session, subscriptionId)) === before) return { rows, balance: before };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the balance kept changing after the restart');
}

describe('a portal killed with SIGKILL during money traffic', () => {
  it('loses no acknowledged purchase, and the next start recovers', { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kumo-crash-'));
    const port = await freePort();
    const first = new Portal(dataDir, port);
    await first.ready();
    const session = await signIn(first);
    const created = await api(first, session, 'POST', '/api/subscription/create', {
      subscription_name: 'Crash test',
      remark: '',
      subscription_type: 'PREPAID',
    });
    expect(created.status).toBe(200);
    const subscriptionId = String(((await created.json()) as { subscription_id: string }).subscription_id);
    const opening = await balanceOf(first, session, subscriptionId);

    // Four clients buy funds in a loop; the portal is killed once enough purchases were acknowledged.
    const acknowledged: { transaction_id: string; amount: number }[] = [];
    let running = true;
    const clients = Array.from({ length: 4 }, async (_, client) => {
      for (let round = 0; running; round++) {
        try {
          acknowledged.push(await buyFunds(first, session, subscriptionId, 10 + client + round));
        } catch {
          // the portal died under this request: nothing was acknowledged
        }
      }
    });
    while (acknowledged.length < 12) await new Promise((resolve) => setTimeout(resolve, 20));
    const pgPid = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    await first.kill('SIGKILL');
    running = false;
    await Promise.all(clients);
    const acknowledgedAtKill = [...acknowledged];
    expect(isRunning(pgPid)).toBe(true); // SIGKILL gave the portal no chance to stop its PostgreSQL

    const second = new Portal(dataDir, port);
    try {
      await second.ready();
      expect(isRunning(pgPid)).toBe(false);
      const again = await signIn(second);
      const { rows, balance } = await steadyHistory(second, again, subscriptionId);
      const successful = new Map(rows.filter((row) => row.transaction_status === 'SUCCESSFUL').map((row) => [row.transaction_id, row]));
      for (const paid of acknowledgedAtKill) {
        expect(successful.get(paid.transaction_id)?.amount, `acknowledged purchase ${paid.transaction_id}`).toBe(paid.amount);
      }
      // The ledger agrees with the history: the balance is the opening one plus every successful purchase.
      const purchased = [...successful.values()].filter((row) => row.category === 'PURCHASED').reduce((sum, row) => sum + row.amount, 0);
      expect(balance).toBeCloseTo(opening + purchased, 2);
      // And the recovered portal takes new money.
      const after = await buyFunds(second, again, subscriptionId, 7);
      expect(after.transaction_status).toBe('SUCCESSFUL');
    } finally {
      expect(await second.kill('SIGTERM')).toBe(0);
    }
    // SIGTERM stopped PostgreSQL too: no server left, its pid file gone.
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    rmSync(dataDir, { recursive: true, force: true });
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';
import { databaseKinds } from './support/databases.js';

// Two real portal processes started at the same moment on a fresh database: both come up every time (one start-up
// lock over migrations, the job queue's schema and queues, and the demo data), no worker sends before the queue
// exists, and the sign-in rate limit is one count for both.

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const kinds = await databaseKinds();
const TRIALS = 1;
const RATE_LIMIT = 20;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

class Portal {
  readonly base: string;
  private readonly child: ChildProcess;
  private exitCode: number | null | undefined;
  output = '';

  constructor(databaseUrl: string, port: number) {
    this.base = `http://127.0.0.1:${port}`;
    this.child = spawn(process.execPath, ['--import', 'tsx', main], {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        SMTP_URL: '',
        DEV_TOOLS: 'demo,mailbox',
        LOG_LEVEL: 'warn',
        AUTH_RATE_LIMIT: String(RATE_LIMIT),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.once('exit', (code) => (this.exitCode = code));
  }

  async ready(): Promise<void> {
    for (let waited = 0; waited < 60_000; waited += 200) {
      if (this.exitCode !== undefined) throw new Error(`the portal exited (${this.exitCode}) during start-up:\n${this.output}`);
      try {
        if ((await fetch(`${this.base}/readyz`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the portal did not become ready:\n${this.output}`);
  }

  async stop(): Promise<void> {
    if (this.exitCode !== undefined) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

async function freshDatabase(kind: string): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl =
    kind === 'embedded' ? inject('embeddedPostgresUrl') : (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const name = `kumo_start_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

describe.each(kinds)('two portal processes on one %s database', (kind) => {
  it(`both start at the same moment on a fresh database and share the sign-in rate limit`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const database = await freshDatabase(kind);
      const portals = [new Portal(database.url, await freePort()), new Portal(database.url, await freePort())];
      try {
        await Promise.all(portals.map((portal) => portal.ready()));
        for (const portal of portals) {
          expect(portal.output).not.toContain('job queue not started yet');
          expect(portal.output).not.toMatch(/deadlock|duplicate key/);
        }
        if (trial > 0) continue;
        // 25 sign-ins from one address to each process: the limit holds for both together.
        const statuses: number[] = [];
        for (let round = 0; round < 25; round++) {
          for (const portal of portals) {
            const answer = await fetch(`${portal.base}/api/user/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email_id: 'nobody@example.com', auth_provider: 'EMAIL_OTP_AUTH' }),
            });
            statuses.push(answer.status);
          }
        }
        expect(statuses.filter((status) => status !== 429)).toHaveLength(RATE_LIMIT);
      } finally {
        await Promise.all(portals.map((portal) => portal.stop()));
        await database.drop();
      }
    }
  }, 120_000);
});

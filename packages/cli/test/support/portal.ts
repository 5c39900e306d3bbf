/**
 * One real portal for the command line's process tests: the built portal (`apps/api/dist/main.js`, which `npm test`
 * builds first) on the embedded default, its own PostgreSQL in a temporary DATA_DIR, with the demo account and the dev
 * mailbox; and the built `kumo` run as a child process against it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const portalMain = join(repoRoot, 'apps/api/dist/main.js');
export const kumoBin = join(repoRoot, 'packages/cli/bin/kumo.js');
const kumoBuilt = join(repoRoot, 'packages/cli/dist/main.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export class Portal {
  output = '';
  private child: ChildProcess | undefined;
  private ended: Promise<void> = Promise.resolve();
  private exitCode: number | null | undefined;
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'kumo-cli-portal-'));

  constructor(readonly port: number) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(timeoutMs = 150_000): Promise<void> {
    for (const built of [portalMain, kumoBuilt]) {
      if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
    }
    this.child = spawn(process.execPath, [portalMain], {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: this.base,
        DATA_DIR: this.dataDir,
        DATABASE_URL: '',
        SMTP_URL: '',
        STRIPE_SECRET_KEY: '',
        STRIPE_WEBHOOK_SECRET: '',
        DEV_TOOLS: 'demo,mailbox',
        LOG_LEVEL: 'warn',
        CLOUD_DRIVER: 'simulated',
        // A cluster stops and starts in about a second.
        SIM_TIME_SCALE: '3600',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => (this.output = (this.output + chunk.toString()).slice(-20_000));
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.ended = new Promise((resolve) => this.child!.once('exit', (code) => ((this.exitCode = code), resolve())));
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exitCode !== undefined) throw new Error(`the portal ended (${this.exitCode}) during start-up:\n${this.output}`);
      try {
        if ((await fetch(`${this.base}/readyz`)).ok) return;
      } catch {
        // not listening yet
      }
      await sleep(250);
    }
    throw new Error(`the portal was not ready within ${timeoutMs} ms:\n${this.output}`);
  }

  /** SIGTERM stops the portal and its PostgreSQL; the data folder goes once both are down. */
  async stop(): Promise<void> {
    if (this.child && this.exitCode === undefined) {
      this.child.kill('SIGTERM');
      await this.ended;
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `kumo …` as a user runs it: its own process, HOME and XDG_CONFIG_HOME; `input` piped to its standard input. */
export function kumo(args: string[], options: { env?: Record<string, string | undefined>; input?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, KUMO_TOKEN: undefined, KUMO_API_URL: undefined, ...options.env };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const child = spawn(process.execPath, [kumoBin, ...args], { env: env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

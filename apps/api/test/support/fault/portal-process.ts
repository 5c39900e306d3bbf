import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));
const builtMain = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));
const sourceMain = fileURLToPath(new URL('../../../src/main.ts', import.meta.url));

/** The portal's token secret in these runs: sessions opened before a kill stay valid after the restart. */
export const FAULT_AUTH_SECRET = 'fault-test-secret-long-enough-for-hmac-0123456789';

export interface PortalOptions {
  port: number;
  smtpUrl: string;
  /** The embedded default: the portal's own PostgreSQL in this folder. */
  dataDir?: string;
  /** An external PostgreSQL instead. */
  databaseUrl?: string;
}

/**
 * One portal process: the built one (`apps/api/dist/main.js`, as `npm test` builds before Vitest), or the
 * sources through tsx when nothing is built. One node process either way, so SIGKILL hits the portal itself.
 */
export class PortalProcess {
  readonly base: string;
  readonly startedAt = Date.now();
  output = '';
  private readonly child: ChildProcess;
  private exitCode: number | null | undefined;
  private exitSignal: NodeJS.Signals | null = null;
  readonly exited: Promise<void>;

  constructor(options: PortalOptions) {
    this.base = `http://127.0.0.1:${options.port}`;
    const entry = existsSync(builtMain) ? [builtMain] : ['--import', 'tsx', sourceMain];
    this.child = spawn(process.execPath, entry, {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(options.port),
        HOST: '127.0.0.1',
        PUBLIC_URL: this.base,
        ...(options.dataDir ? { DATA_DIR: options.dataDir, DATABASE_URL: '' } : { DATABASE_URL: options.databaseUrl }),
        SMTP_URL: options.smtpUrl,
        AUTH_SECRET: FAULT_AUTH_SECRET,
        AUTH_RATE_LIMIT: '100000',
        MAIL_RATE_PER_MINUTE: '100000',
        MAIL_RATE_PER_DOMAIN_PER_MINUTE: '100000',
        // The sandbox checkout pays for the traffic's top-ups; no demo accounts.
        DEV_TOOLS: 'sandbox',
        LOG_LEVEL: 'warn',
        CLOUD_DRIVER: 'simulated',
        // An hour-long deployment in a second, and one billable hour per real second.
        SIM_TIME_SCALE: '3600',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      // Enough to explain a failure; a long soak must not hold every warning in memory.
      this.output = (this.output + chunk.toString()).slice(-20_000);
    };
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      }),
    );
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  get alive(): boolean {
    return this.exitCode === undefined;
  }

  /** How the process ended: an exit code, a signal name, or undefined while it runs. */
  get ending(): string | undefined {
    if (this.alive) return undefined;
    return this.exitSignal ?? `exit ${this.exitCode}`;
  }

  async isReady(): Promise<boolean> {
    try {
      return (await fetch(`${this.base}/readyz`, { signal: AbortSignal.timeout(2_000) })).ok;
    } catch {
      return false;
    }
  }

  /** Waits for /readyz; resolves with the milliseconds since the process was spawned. */
  async ready(timeoutMs = 90_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.alive) throw new Error(`the portal ended (${this.ending}) during start-up:\n${this.output}`);
      if (await this.isReady()) return Date.now() - this.startedAt;
      await sleep(100);
    }
    throw new Error(`the portal did not become ready within ${timeoutMs} ms:\n${this.output}`);
  }

  async kill(signal: NodeJS.Signals): Promise<void> {
    if (this.alive) this.child.kill(signal);
    await this.exited;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

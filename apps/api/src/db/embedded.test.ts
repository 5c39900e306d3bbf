import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { DataDirInUseError, startEmbeddedPostgres } from './embedded.js';
import { users } from './schema.js';

const holder = fileURLToPath(new URL('../../test/support/embedded-holder.ts', import.meta.url));

/** Alive and not a zombie: an orphan that has exited may wait a while for init to reap it. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/** Starts the embedded server of dataDir in another process, as a portal would. */
async function startInAnotherProcess(dataDir: string) {
  // `node --import tsx`, not the tsx launcher: one process, so a SIGKILL reaches the one holding the server.
  const child = spawn(process.execPath, ['--import', 'tsx', holder, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await Promise.race([
    (async () => {
      for await (const output of createInterface({ input: child.stdout })) return [output];
      return [undefined];
    })(),
    new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`holder exited with ${code}`)))),
  ]);
  const { url, pid } = JSON.parse(line ?? '{}') as { url: string; pid: number };
  return { child, url, pid };
}

async function count(url: string, sql: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(sql)).rows[0]?.n);
  } finally {
    await client.end();
  }
}

const dataDirs: string[] = [];
function newDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dataDirs.push(dir);
  return dir;
}

describe('embedded PostgreSQL', () => {
  afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('keeps its data in DATA_DIR across a restart and stops with close()', async () => {
    const dataDir = newDataDir('kumo-data-');
    const first = await openDatabase({ dataDir });
    expect(first.kind).toBe('embedded');
    await first.db.insert(users).values({ email: 'kept@example.com', name: 'Kept Person', createdAt: new Date() });
    await first.close();

    const second = await openDatabase({ dataDir });
    const rows = await second.db.select().from(users);
    expect(rows.map((row) => row.email)).toEqual(['kept@example.com']);
    await second.close();
  });

  it('listens on 127.0.0.1 only, with a password, and its process ends on stop()', async () => {
    const dataDir = newDataDir('kumo-listen-');
    const server = await startEmbeddedPostgres(dataDir, { durable: false, log: () => undefined });
    expect(new URL(server.url).hostname).toBe('127.0.0.1');
    expect(await count(server.url, `select count(*) as n from pg_settings where name = 'listen_addresses' and setting = '127.0.0.1'`)).toBe(
      1,
    );
    const withoutPassword = new URL(server.url);
    withoutPassword.password = '';
    await expect(count(withoutPassword.toString(), 'select 1 as n')).rejects.toThrow();
    await server.stop();
    expect(isRunning(server.pid)).toBe(false);
  });

  it('refuses a second portal on the same DATA_DIR with a clear message', async () => {
    const dataDir = newDataDir('kumo-lock-');
    const first = await startInAnotherProcess(dataDir);
    try {
      await expect(startEmbeddedPostgres(dataDir, { durable: false, log: () => undefined })).rejects.toThrow(DataDirInUseError);
      await expect(startEmbeddedPostgres(dataDir, { durable: false, log: () => undefined })).rejects.toThrow(
        /is in use: another Kumo Cloud portal \(pid \d+\) runs its PostgreSQL/,
      );
      // The refused start left the running server alone.
      expect(await count(first.url, 'select 1 as n')).toBe(1);
    } finally {
      first.child.kill('SIGTERM');
      await new Promise((resolve) => first.child.once('exit', resolve));
    }
    expect(isRunning(first.pid)).toBe(false);
  });

  it('stops the PostgreSQL left running by a portal killed with SIGKILL and starts again on the same data', async () => {
    const dataDir = newDataDir('kumo-leftover-');
    const first = await startInAnotherProcess(dataDir);
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    await client.query('create table kept (id int)');
    await client.query('insert into kept values (1), (2)');
    await client.end();
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(isRunning(first.pid)).toBe(true); // the orphaned server is still there

    const messages: string[] = [];
    const second = await startEmbeddedPostgres(dataDir, { durable: false, log: (message) => messages.push(message) });
    try {
      expect(messages.join('\n')).toMatch(/left running by a portal that ended without stopping it/);
      expect(isRunning(first.pid)).toBe(false);
      expect(await count(second.url, 'select count(*) as n from kept')).toBe(2);
    } finally {
      await second.stop();
    }
  });
});

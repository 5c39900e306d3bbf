import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './client.js';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.js';
import { users } from './schema.js';

describe('embedded database', () => {
  it('keeps its data in DATA_DIR across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kumo-data-'));
    const first = await openDatabase({ dataDir });
    await first.db.insert(users).values({ email: 'kept@example.com', name: 'Kept Person', createdAt: new Date() });
    await first.close();

    const second = await openDatabase({ dataDir });
    const rows = await second.db.select().from(users);
    expect(rows.map((row) => row.email)).toEqual(['kept@example.com']);
    await second.close();
  });

  it('refuses a second process on the same DATA_DIR and releases it on close', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kumo-lock-'));
    const release = lockDataDir(dataDir);
    // A live process other than this one holds the lock: pid 1 always runs.
    writeFileSync(join(dataDir, 'kumo.lock'), '1');
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    expect(() => lockDataDir(dataDir)).toThrow(/in use by another Kumo Cloud process \(pid 1\)/);
    release();
    const again = lockDataDir(dataDir);
    again();
  });

  it('takes over a lock left by a process that died', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kumo-stale-'));
    writeFileSync(join(dataDir, 'kumo.lock'), '999999999');
    const release = lockDataDir(dataDir);
    release();
  });
});

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirUnreachableError, assertReachable, blockingFolder, postgresSystemUser } from './data-dir-access.js';

const stranger = { name: 'postgres', uid: 4_000_001, gids: [4_000_001] };
const me = { name: 'me', uid: process.getuid?.() ?? 0, gids: [process.getgid?.() ?? 0] };

describe('whether the embedded PostgreSQL user can reach DATA_DIR', () => {
  let parent = '';
  beforeEach(() => {
    // mkdtemp makes a folder of mode 700, like root's home directory.
    parent = mkdtempSync(join(tmpdir(), 'kumo-data-dir-'));
  });
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  it('names the folder of mode 700 above DATA_DIR and the fix, in one line', () => {
    const dataDir = join(parent, 'data');
    expect(blockingFolder(dataDir, stranger)).toBe(parent);
    expect(() => assertReachable(dataDir, stranger)).toThrow(DataDirUnreachableError);
    try {
      assertReachable(dataDir, stranger);
    } catch (error) {
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toContain(`DATA_DIR ${dataDir}`);
      expect(message).toContain(`cannot pass through ${parent} (mode 700)`);
      expect(message).toContain(`chmod o+x ${parent}`);
    }
  });

  it('lets the folder pass once others may search it, or for its owner, or through its group', () => {
    const dataDir = join(parent, 'data');
    expect(blockingFolder(dataDir, me)).toBeUndefined();
    chmodSync(parent, 0o710);
    expect(blockingFolder(dataDir, stranger)).toBe(parent);
    expect(blockingFolder(dataDir, { ...stranger, gids: [stranger.gids[0]!, me.gids[0]!] })).toBeUndefined();
    chmodSync(parent, 0o711);
    expect(() => assertReachable(dataDir, stranger)).not.toThrow();
  });

  it('reads the postgres user and its groups, and treats a user still to be created as a stranger', () => {
    const passwd = join(parent, 'passwd');
    const group = join(parent, 'group');
    writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\npostgres:x:101:104:PostgreSQL administrator:/var/lib/postgresql:/bin/bash\n');
    writeFileSync(group, 'root:x:0:\npostgres:x:104:\nssl-cert:x:110:postgres\nstaff:x:50:alice\n');
    expect(postgresSystemUser({ passwd, group })).toEqual({ name: 'postgres', uid: 101, gids: [104, 110] });
    writeFileSync(passwd, 'root:x:0:0:root:/root:/bin/bash\n');
    expect(postgresSystemUser({ passwd, group })).toEqual({ name: 'postgres', uid: -1, gids: [] });
  });
});

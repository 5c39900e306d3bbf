import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedServer } from './embedded.js';
import * as schema from './schema.js';

/** node-postgres is the one driver, so raw `execute` results are typed as pg's QueryResult. */
export type Database = NodePgDatabase<typeof schema>;
/** A transaction handle; every repository method accepts one so a caller can group writes. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];
export type DbOrTx = Database | Tx;

/** The raw SQL entry point pg-boss uses: the application's own connection pool. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface DatabaseHandle {
  /** 'embedded': the PostgreSQL server the portal runs itself in DATA_DIR; 'postgres': DATABASE_URL. */
  kind: 'embedded' | 'postgres';
  /** The connection string the pool uses. */
  url: string;
  db: Database;
  jobsSql: SqlExecutor;
  ping(): Promise<void>;
  /**
   * Ends the start-up lock taken by `holdStartupLock` (a no-op otherwise): until then every other process of the
   * portal waits before its own migrations, so whatever the holder does first (the job queue's schema, seeds) runs alone.
   */
  releaseStartupLock(): Promise<void>;
  /** Closes the pool, then stops the embedded server if the portal runs one. */
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Keep the start-up lock after migrating, for the caller's further start-up steps; released by releaseStartupLock(). */
  holdStartupLock?: boolean;
  /** Where lost connections are reported (a warning: the pool replaces them). */
  log?: (message: string) => void;
}

const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));
// Any constant shared by every process of the portal: serialises start-up (migrations, job queue schema, seeds) across processes.
const STARTUP_LOCK_KEY = 727_001;
// A request waits this long for a connection before it is answered 503, rather than hanging while the database is away.
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Opens PostgreSQL at `url`, or starts the embedded PostgreSQL kept in `dataDir`, and migrates it.
 * One code path either way: node-postgres, a pool shared by requests and jobs.
 */
export async function openDatabase(options: { url?: string; dataDir: string } & OpenOptions): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, 'postgres', undefined, options);
  const server = await startEmbeddedPostgres(options.dataDir, { log: options.log });
  try {
    return await openPostgres(server.url, 'embedded', server, options);
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * The session-level advisory lock every portal process takes before it migrates, on a connection of its own (outside
 * the pool, so the lock never travels back into it with a pooled connection). A lost connection gives the lock up.
 */
async function takeStartupLock(url: string, log: (message: string) => void) {
  const client = new pg.Client({ connectionString: url });
  client.on('error', (error) => log(`PostgreSQL connection holding the start-up lock lost: ${error.message}`));
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  let released = false;
  return {
    client,
    async release() {
      if (released) return;
      released = true;
      await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/** Connects to a running PostgreSQL and migrates it; `server`, when given, is stopped by close(). */
export async function openPostgres(
  url: string,
  kind: DatabaseHandle['kind'],
  server?: EmbeddedServer,
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  let closed = false;
  const log = options.log ?? ((message: string) => console.warn(message));
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // A connection the server drops must never end the process. The pool listens only to idle connections; a checked-out
  // one (a transaction waiting between statements) emits 'error' to nobody, so every connection gets a listener of
  // its own. Its next statement then fails, and the pool discards it on release. While closing, the embedded
  // server's shutdown ends connections the pool is still letting go of: nothing to report then.
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      if (!closed) log(`PostgreSQL connection lost: ${error.message}`);
    });
  });
  pool.on('error', () => undefined); // already reported by the connection's own listener above
  const db: Database = drizzle({ client: pool, schema });
  let startupLock: Awaited<ReturnType<typeof takeStartupLock>> | undefined;
  try {
    startupLock = await takeStartupLock(url, log);
    await migrate(drizzle({ client: startupLock.client, schema }), { migrationsFolder });
    if (!options.holdStartupLock) await startupLock.release();
  } catch (error) {
    await startupLock?.release();
    await pool.end().catch(() => undefined);
    throw error;
  }
  return {
    kind,
    url,
    db,
    jobsSql: { executeSql: (text, values) => pool.query(text, values) },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    releaseStartupLock: async () => {
      await startupLock?.release();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await startupLock?.release();
      await pool.end();
      await server?.stop();
    },
  };
}

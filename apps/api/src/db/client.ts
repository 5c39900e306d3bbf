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
  db: Database;
  jobsSql: SqlExecutor;
  ping(): Promise<void>;
  /** Closes the pool, then stops the embedded server if the portal runs one. */
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('../../migrations', import.meta.url));
// Any constant shared by every process of the portal: serialises migrations across processes.
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Opens PostgreSQL at `url`, or starts the embedded PostgreSQL kept in `dataDir`, and migrates it.
 * One code path either way: node-postgres, a pool shared by requests and jobs.
 */
export async function openDatabase(options: { url?: string; dataDir: string; log?: (message: string) => void }): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, 'postgres');
  const server = await startEmbeddedPostgres(options.dataDir, { log: options.log });
  try {
    return await openPostgres(server.url, 'embedded', server);
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Connects to a running PostgreSQL and migrates it; `server`, when given, is stopped by close(). */
export async function openPostgres(url: string, kind: DatabaseHandle['kind'], server?: EmbeddedServer): Promise<DatabaseHandle> {
  let closed = false;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection dropped by the server must not crash the process; the pool replaces it. While closing,
  // the embedded server's shutdown ends connections the pool is still letting go of: nothing to report then.
  pool.on('error', (error) => {
    if (!closed) console.error('PostgreSQL connection lost:', error.message);
  });
  const db: Database = drizzle({ client: pool, schema });
  try {
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await migrate(drizzle({ client: lockClient, schema }), { migrationsFolder });
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      lockClient.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return {
    kind,
    db,
    jobsSql: { executeSql: (text, values) => pool.query(text, values) },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
      await server?.stop();
    },
  };
}

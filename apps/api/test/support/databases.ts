import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.js';

export type DatabaseKind = 'pglite' | 'postgres';

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The databases every API test runs on: embedded PGlite always, and PostgreSQL when it answers.
 * In CI PostgreSQL must be there: its absence fails the run instead of skipping the tests.
 */
export async function databaseKinds(): Promise<DatabaseKind[]> {
  if (await postgresAnswers()) return ['pglite', 'postgres'];
  if (process.env.CI) throw new Error(`PostgreSQL is required in CI but does not answer at ${ADMIN_URL}`);
  console.warn(`PostgreSQL does not answer at ${ADMIN_URL}: running the API tests on PGlite only`);
  return ['pglite'];
}

/** A fresh, migrated database of the given kind; dropping it is part of close(). */
export async function openTestDatabase(kind: DatabaseKind): Promise<DatabaseHandle> {
  if (kind === 'pglite') return openDatabase({ dataDir: 'memory://' });
  const name = `kumo_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), dataDir: '' });
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: ADMIN_URL });
      await dropper.connect();
      // pg's pool resolves end() before its connections have closed; forcing the drop under them makes them error.
      for (let waited = 0; waited < 5000; waited += 50) {
        const { rows } = await dropper.query<{ open: number }>('select count(*)::int as open from pg_stat_activity where datname = $1', [
          name,
        ]);
        if (rows[0]?.open === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

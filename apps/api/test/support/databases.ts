import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres, type DatabaseHandle } from '../../src/db/client.js';

/** 'embedded': the run's embedded PostgreSQL (as the portal's default); 'postgres': the external server. */
export type DatabaseKind = 'embedded' | 'postgres';

const EXTERNAL_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: EXTERNAL_URL, connectionTimeoutMillis: 2000 });
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
 * The databases every API test runs on: the embedded PostgreSQL always, and the external PostgreSQL when
 * it answers. In CI the external one must be there: its absence fails the run instead of skipping the tests.
 */
export async function databaseKinds(): Promise<DatabaseKind[]> {
  if (await postgresAnswers()) return ['embedded', 'postgres'];
  if (process.env.CI) throw new Error(`PostgreSQL is required in CI but does not answer at ${EXTERNAL_URL}`);
  console.warn(`PostgreSQL does not answer at ${EXTERNAL_URL}: running the API tests on the embedded PostgreSQL only`);
  return ['embedded'];
}

function embeddedAdminUrl(): string {
  const url = inject('embeddedPostgresUrl');
  if (!url) throw new Error('No embedded PostgreSQL: run the API tests through the apps/api vitest project (its globalSetup starts it).');
  return url;
}

function withDatabase(url: string, name: string): string {
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.toString();
}

/**
 * A fresh, migrated database of the given kind; dropping it is part of close(). On the embedded server it
 * is a copy of the run's migrated template (cheap); on the external one it is created and migrated.
 */
export async function openTestDatabase(kind: DatabaseKind): Promise<DatabaseHandle> {
  const adminUrl = kind === 'embedded' ? embeddedAdminUrl() : EXTERNAL_URL;
  const name = `kumo_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(
    kind === 'embedded' ? `create database ${name} template ${inject('embeddedTemplate')} strategy file_copy` : `create database ${name}`,
  );
  // A throwaway database need not wait for each commit to reach the disk (the embedded test server runs without fsync).
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();
  const handle = await openPostgres(withDatabase(adminUrl, name), kind);
  return {
    ...handle,
    async close() {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
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

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../src/db/client.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the one embedded PostgreSQL server of this test run. */
    embeddedPostgresUrl: string;
    /** Migrated database that each test database is copied from. */
    embeddedTemplate: string;
  }
}

export const EMBEDDED_TEMPLATE = 'kumo_template';

/**
 * Vitest global setup: ONE embedded PostgreSQL for the whole run (not durable: a test cluster), with a
 * migrated template database, so each test context only pays for `create database … template`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kumo-test-pg-'));
  const started = Date.now();
  const server = await startEmbeddedPostgres(dataDir, { durable: false, maxConnections: 400, log: () => undefined });
  const ready = Date.now();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query(`create database ${EMBEDDED_TEMPLATE}`);
  await admin.end();
  const templateUrl = new URL(server.url);
  templateUrl.pathname = `/${EMBEDDED_TEMPLATE}`;
  const template = await openPostgres(templateUrl.toString(), 'embedded');
  await template.close();
  if (process.env.KUMO_TEST_TIMINGS) {
    console.log(`embedded PostgreSQL for tests: started in ${ready - started} ms, template ready in ${Date.now() - ready} ms`);
  }
  project.provide('embeddedPostgresUrl', server.url);
  project.provide('embeddedTemplate', EMBEDDED_TEMPLATE);
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

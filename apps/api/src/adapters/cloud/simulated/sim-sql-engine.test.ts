import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlRefusal } from '../sql-port.js';
import { MAX_THREADS, SANDBOX, createSimSqlEngines, threadsFor, type SimSqlEngines } from './sim-sql-engine.js';
import { statementAllowed } from './sim-sql-guard.js';

describe('the simulated query engine', () => {
  let dir: string;
  let engines: SimSqlEngines;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kumo-engine-test-'));
    engines = createSimSqlEngines({ dataDir: dir, timeoutMs: 300 });
  });
  afterAll(async () => {
    await engines.closeAll();
    await rm(dir, { recursive: true, force: true });
  });

  it("runs on threads that follow the cluster's query-engine cores, capped", async () => {
    expect([threadsFor(4), threadsFor(16), threadsFor(64), threadsFor(65), threadsFor(320)]).toEqual([1, 1, 1, 2, MAX_THREADS]);
    const small = await engines.run('kumo-small', { query: "select current_setting('threads') as t", maxRows: 1 }, 16);
    expect(Number(small.rows[0]![0])).toBe(1);
    const large = await engines.run('kumo-large', { query: "select current_setting('threads') as t", maxRows: 1 }, 128);
    expect(Number(large.rows[0]![0])).toBe(2);
  });

  it('cancels a query that runs past its time with QUERY_TIMEOUT', async () => {
    const slow = engines.run('kumo-slow', { query: 'select count(*) from range(1000000000000) a', maxRows: 10 });
    await expect(slow).rejects.toMatchObject({ code: 'QUERY_TIMEOUT', statusCode: 400 });
    // The engine still answers afterwards.
    expect((await engines.run('kumo-slow', { query: 'select 1 as one', maxRows: 10 })).rows).toEqual([[1]]);
  });

  it('holds about 100,000 sample rows in schema samples', async () => {
    const answer = await engines.run('kumo-samples', {
      query: "select sum(estimated_size) from duckdb_tables() where schema_name = 'samples'",
      maxRows: 1,
    });
    expect(Number(answer.rows[0]![0])).toBeGreaterThan(100_000);
  });

  // The second fence: even a statement the check lets through (here DuckDB is asked directly) finds the engine's
  // own settings shut. Each of these succeeds on a DuckDB opened without them.
  it("refuses files, other databases, extensions and settings by DuckDB's own settings too", async () => {
    const instance = await DuckDBInstance.create(join(dir, 'fence.duckdb'), SANDBOX);
    const connection = await instance.connect();
    try {
      for (const statement of [
        "select * from read_csv('/etc/hostname')",
        "attach '/tmp/kumo-other.duckdb' as other",
        "copy (select 1) to '/tmp/kumo-out.csv'",
        'install httpfs',
        'set enable_external_access = true',
        'set threads = 64',
      ]) {
        await expect(connection.run(statement), statement).rejects.toThrow();
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('lets ordinary SQL through the statement check, words in strings and comments included', () => {
    for (const query of [
      'select * from samples.orders',
      "select 'copy' as word -- attach",
      'create table t as select 1 as settings',
      "select regexp_matches('read_csv(', 'x')",
    ]) {
      expect([query, statementAllowed(query)]).toEqual([query, true]);
    }
    expect(statementAllowed("SELECT * FROM READ_PARQUET('s3://bucket/x.parquet')")).toBe(false);
    expect(statementAllowed("  ( select * from 'x.csv' )")).toBe(false);
  });

  it('answers an engine error as QUERY_FAILED', async () => {
    const failed = engines.run('kumo-samples', { query: 'select * from nowhere', maxRows: 1 });
    await expect(failed).rejects.toBeInstanceOf(SqlRefusal);
    await expect(failed).rejects.toMatchObject({ code: 'QUERY_FAILED' });
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getTableName, is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../src/db/schema.js';
import { ownedSources, ownershipOf, violationsOf, type SourceFile } from './support/table-ownership.js';

/**
 * Each module, adapter and the HTTP layer uses only its own tables; another owner's data is read through the views it
 * publishes or asked of its service (docs/architecture.md, "Data ownership"; decision 0022).
 */
const srcRoot = fileURLToPath(new URL('../src/', import.meta.url));
const sources = ownedSources(srcRoot);
const ownership = ownershipOf(sources);

describe('table ownership', () => {
  it('gives every table exactly one owner, and leaves db/schema.ts a barrel that declares none', () => {
    const tables = Object.values(schema).filter((value) => is(value, PgTable));
    expect(tables.length).toBeGreaterThan(30);
    const unowned = tables.map((table) => getTableName(table as PgTable)).filter((name) => !ownership.tables.has(name));
    expect(unowned).toEqual([]);
    expect(ownership.tables.size).toBe(tables.length);
    const barrel = readFileSync(new URL('../src/db/schema.ts', import.meta.url), 'utf8');
    expect(barrel).not.toMatch(/pgTable|pgSequence|pgView/);
  });

  it('places the tables with the modules, adapters and HTTP layer that own them', () => {
    const ownerOfTable = (name: string) => ownership.tables.get(name)?.owner;
    expect(ownerOfTable('users')).toBe('modules/auth');
    expect(ownerOfTable('account_members')).toBe('modules/auth');
    expect(ownerOfTable('invitations')).toBe('modules/users');
    expect(ownerOfTable('billing_accounts')).toBe('modules/ledger');
    expect(ownerOfTable('subscriptions')).toBe('modules/subscriptions');
    expect(ownerOfTable('purchases')).toBe('modules/billing');
    expect(ownerOfTable('clusters')).toBe('modules/clusters');
    expect(ownerOfTable('sim_cloud_stacks')).toBe('adapters/cloud');
    expect(ownerOfTable('sandbox_checkout_sessions')).toBe('adapters/payments');
    expect(ownerOfTable('rate_limit_hits')).toBe('http');
  });

  it("finds no module naming another's table, in SQL or by importing it", () => {
    expect(sources.flatMap((file) => violationsOf(file, ownership))).toEqual([]);
  });
});

describe('the ownership check itself', () => {
  const billing = (text: string): SourceFile => ({ path: 'modules/billing/billing.repository.ts', text });
  const found = (text: string) => violationsOf(billing(text), ownership);

  it("catches another owner's table named in SQL, however the SQL is written", () => {
    expect(found('const q = sql`select email from users where id = ${id}`;')).toEqual([
      'modules/billing/billing.repository.ts:1: SQL names users, a table of modules/auth',
    ]);
    expect(found('const q = sql<number>`select count(*) from ${x} join Clusters c on true`;')).toHaveLength(1);
    expect(found("await db.execute(sql.raw('delete from rate_limit_hits'));")).toHaveLength(1);
    expect(found("await client.query('select 1 from subscriptions');")).toHaveLength(1);
    expect(found('await jobs.executeSql(`update ledger_entries set x = 1`);')).toHaveLength(1);
  });

  it("catches another owner's Drizzle table imported from its schema file, its index or the barrel", () => {
    expect(found("import { users } from '../auth/auth.schema.js';")).toEqual([
      'modules/billing/billing.repository.ts:1: imports modules/auth/auth.schema, the tables of modules/auth',
    ]);
    expect(found("import { users as people } from '../auth/index.js';")).toEqual([
      'modules/billing/billing.repository.ts:1: imports users, the table users of modules/auth',
    ]);
    expect(found("import { purchases } from '../../db/schema.js';")).toHaveLength(1);
    expect(found("export { simCloudStacks } from '../../adapters/cloud/simulated/sim-cloud.schema.js';")).toHaveLength(1);
  });

  it('lets a module use its own tables, published views, types, and words outside SQL', () => {
    expect(found("import { purchases } from './billing.schema.js';\nconst q = sql`select * from purchases`;")).toEqual([]);
    expect(found("import { userDirectory } from '../auth/index.js';\nconst q = sql`select email from user_directory`;")).toEqual([]);
    expect(found("import type { StoredClusterNode } from '../../db/schema.js';")).toEqual([]);
    expect(found("import { type users } from '../auth/auth.schema.js';")).toEqual([]);
    expect(found("const message = 'Your clusters and subscriptions are safe';")).toEqual([]);
  });

  it('counts adapters and the HTTP layer as owners of their own tables only', () => {
    const at = (path: string, text: string) => violationsOf({ path, text }, ownership);
    expect(at('http/rate-limit-store.ts', 'sql`delete from rate_limit_hits`')).toEqual([]);
    expect(at('http/auth-guard.ts', 'sql`select 1 from sessions`')).toHaveLength(1);
    expect(at('adapters/cloud/simulated/simulated-provisioner.ts', 'sql`select * from sim_cloud_stacks`')).toEqual([]);
    expect(at('adapters/payments/sandbox/sandbox.repository.ts', 'sql`select * from purchases`')).toHaveLength(1);
  });
});

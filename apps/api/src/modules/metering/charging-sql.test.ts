import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chargeAccountSql, markCheckedSql, registerClustersSql } from './charging-sql.js';

const ACCOUNT = '00000000-0000-4000-8000-00000000000a';
const RUN = '00000000-0000-4000-8000-0000000000ff';
const NOW = new Date('2026-03-01T12:34:56.000Z');

/** The statement as PostgreSQL receives it: its text, then its parameters. */
function rendered(query: SQL): string {
  const { sql, params } = new PgDialect().sqlToQuery(query);
  return `${sql.trim()}\n\n-- parameters\n${params.map((p, i) => `-- $${i + 1} = ${JSON.stringify(p)}`).join('\n')}\n`;
}

// Any change to what a charging run sends shows here: update the files (vitest -u) only for a change meant.
describe('the charging run statements', () => {
  it('start following new clusters from the clusters directory', async () => {
    await expect(rendered(registerClustersSql(3_600_000))).toMatchFileSnapshot('./__snapshots__/register-clusters.sql');
  });

  it('charge an account in one statement', async () => {
    await expect(rendered(chargeAccountSql(ACCOUNT, NOW, RUN))).toMatchFileSnapshot('./__snapshots__/charge-account.sql');
  });

  it('move the check mark and finish deleted clusters', async () => {
    await expect(rendered(markCheckedSql(ACCOUNT, NOW))).toMatchFileSnapshot('./__snapshots__/mark-checked.sql');
  });
});

import { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chargeAccountSql, markCheckedSql, markRequestsCountedSql, registerClustersSql } from './charging-sql.js';

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

  it('charge the storage requests the cloud counted with the hours, and move their marks', async () => {
    const CLUSTER = '00000000-0000-4000-8000-0000000000c1';
    const hour = new Date('2026-03-01T11:00:00.000Z');
    const requests = [
      { clusterId: CLUSTER, hourStart: hour, requests: 18_250 },
      // An hour without requests is not charged.
      { clusterId: CLUSTER, hourStart: new Date('2026-03-01T12:00:00.000Z'), requests: 0 },
    ];
    await expect(rendered(chargeAccountSql(ACCOUNT, NOW, RUN, requests))).toMatchFileSnapshot(
      './__snapshots__/charge-account-with-requests.sql',
    );
    await expect(rendered(markRequestsCountedSql([{ clusterId: CLUSTER, until: NOW }]))).toMatchFileSnapshot(
      './__snapshots__/mark-requests-counted.sql',
    );
  });

  it('move the check mark and finish deleted clusters', async () => {
    await expect(rendered(markCheckedSql(ACCOUNT, NOW))).toMatchFileSnapshot('./__snapshots__/mark-checked.sql');
  });
});

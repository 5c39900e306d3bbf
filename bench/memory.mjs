// Memory under a large database: 10,000 more accounts (each an owner with a subscription) and 1,000,000 ledger rows
// written straight into the embedded PostgreSQL with generate_series, then the console's reads at fixed rates; prints
// the portal process's resident size before, after the seeding and after the reads, and its peak (goal < 300 MB).
// BENCH_MEMORY_ACCOUNTS (10000) and BENCH_MEMORY_LEDGER_ROWS (1000000) size it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { residentMiB } from './portal.mjs';

const ACCOUNTS = Number(process.env.BENCH_MEMORY_ACCOUNTS ?? 10_000);
const LEDGER_ROWS = Number(process.env.BENCH_MEMORY_LEDGER_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 10);

/** The embedded PostgreSQL of a bench portal: its port from postmaster.pid, its password from the data directory. */
function embeddedUrl(dataDir) {
  const port = readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')
    .split('\n')[3]
    .trim();
  const password = readFileSync(join(dataDir, 'postgres-password'), 'utf8').trim();
  return `postgres://kumo:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

/** People, accounts, memberships, money settings and one subscription each; then the ledger rows, spread evenly. */
async function seed(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(
      `
      create temporary table bench_people on commit drop as
        select n, gen_random_uuid() as user_id, gen_random_uuid() as account_id, gen_random_uuid() as subscription_id
        from generate_series(1, $1::int) as n`,
      [ACCOUNTS],
    );
    await client.query(`
      insert into users (id, email, name, created_at)
        select user_id, 'memory-' || n || '@bench.example.com', 'Memory Owner ' || n, now() from bench_people`);
    await client.query(`insert into accounts (id, owner_user_id, created_at) select account_id, user_id, now() from bench_people`);
    await client.query(`
      insert into account_members (account_id, user_id, role, created_at)
        select account_id, user_id, 'ACCOUNT_OWNER', now() from bench_people`);
    await client.query(`insert into billing_accounts (account_id, created_at) select account_id, now() from bench_people`);
    // Each subscription's balance is the sum of its ledger rows below: rows of 100 cents each.
    await client.query(
      `
      insert into subscriptions (id, account_id, name, balance_cents, created_by_user_id, created_at)
        select subscription_id, account_id, 'Memory ' || n,
          100 * (($2::int / $1::int) + (case when n <= $2::int % $1::int then 1 else 0 end)), user_id, now()
        from bench_people`,
      [ACCOUNTS, LEDGER_ROWS],
    );
    await client.query(
      `
      insert into ledger_entries (subscription_id, kind, category, amount_cents, balance_after_cents, idempotency_key,
                                  description, created_by_user_id, created_at)
        select p.subscription_id, 'ADMIN_FUNDS', 'REFUND_MAINTENANCE_COST', 100,
          100 * (1 + (r - 1) / $1::int), 'bench-memory-' || r, 'Funds added for the memory bench', p.user_id,
          now() - make_interval(secs => $2::int - r)
        from generate_series(1, $2::int) as r
        join bench_people p on p.n = 1 + (r - 1) % $1::int`,
      [ACCOUNTS, LEDGER_ROWS],
    );
    await client.query('commit');
    await client.query('analyze');
    const { rows } = await client.query('select count(*)::int as accounts from accounts');
    const { rows: ledger } = await client.query('select count(*)::int as entries from ledger_entries');
    return { accounts: rows[0].accounts, entries: ledger[0].entries };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

function peakMiB(pid) {
  const kib = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kib ? Number(kib) / 1024 : NaN;
}

/** Returns the number of failed answers. */
export async function memoryUnderData({ base, portal, readHeaders, subscriptionId }) {
  const mib = (value) => `${value.toFixed(0)} MiB`;
  const before = residentMiB(portal.pid);
  const started = performance.now();
  const seeded = await seed(embeddedUrl(portal.dataDir));
  const seedSeconds = (performance.now() - started) / 1000;
  const afterSeed = residentMiB(portal.pid);
  const reads = [
    ['/api/user/detail', 200],
    ['/api/subscription/list', 200],
    ['/api/cluster/view', 50],
    [`/api/subscription/consumption/credit-analysis/${subscriptionId}`, 50],
    [`/api/credit/view/credit-transactions/${subscriptionId}?page=0&size=20`, 50],
  ];
  let failed = 0;
  const results = await Promise.all(
    reads.map(([path, rate]) =>
      autocannon({ url: `${base}${path}`, overallRate: rate, connections: 20, duration: SECONDS, headers: readHeaders }),
    ),
  );
  for (const [i, result] of results.entries()) {
    failed += result.non2xx + result.errors;
    if (result.non2xx + result.errors > 0) console.log(`  ${reads[i][0]}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const afterReads = residentMiB(portal.pid);
  console.log(
    `\nmemory: ${seeded.accounts} accounts and ${seeded.entries} ledger rows (seeded in ${seedSeconds.toFixed(0)} s), ` +
      `then ${reads.length} reads at once for ${SECONDS} s (${reads.map(([, rate]) => rate).join('+')} req/s)\n` +
      `  portal resident: before ${mib(before)}, after seeding ${mib(afterSeed)}, after the reads ${mib(afterReads)}; ` +
      `peak ${mib(peakMiB(portal.pid))} (goal < 300 MiB); failed answers ${failed}`,
  );
  return failed;
}

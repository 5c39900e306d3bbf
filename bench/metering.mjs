/**
 * Metering bench (npm run bench runs it after the HTTP bench): on the embedded PostgreSQL, charges 100,000
 * (cluster, dimension, hour) units through the metering run and prints the throughput as a ratio to plain
 * inserts of the same rows in the same run; then the cost calls of an account with 1,000 clusters (10
 * subscriptions) and 12 months of rollups — a subscription's month, a cluster's month, the overview — with
 * their p50 and p95 over 40 calls each. The rollups of the analysis account are made in SQL (daily rows, and
 * the monthly and per-subscription rows summed from them as migration 0009 does), not charged hour by hour,
 * each table in time order as the charging run writes it.
 * The charging run also prints its CPU time (PostgreSQL and this process), steadier than its wall time on a busy machine.
 * BENCH_SRC=1 runs the TypeScript sources through tsx instead of dist. */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

const root = process.env.BENCH_SRC ? '../apps/api/src' : '../apps/api/dist';
const { openDatabase } = await import(`${root}/db/client.js`);
const { createServices } = await import(`${root}/services.js`);
const { sql } = await import('drizzle-orm');
const { pino } = await import('pino');

const CLUSTERS = Number(process.env.BENCH_METERING_CLUSTERS ?? 100);
const HOURS = Number(process.env.BENCH_METERING_HOURS ?? 167);
const ANALYSIS_CLUSTERS = Number(process.env.BENCH_ANALYSIS_CLUSTERS ?? 1000);
const HOUR = 3_600_000;
const dataDir = mkdtempSync(join(tmpdir(), 'kumo-bench-metering-'));
const handle = await openDatabase({ dataDir, log: () => {} });
const db = handle.db;
const q = async (query) => (await db.execute(query)).rows;

// CPU seconds of the embedded PostgreSQL (its postmaster, the backends it reaped, and the live backends) and of this
// process: on a busy machine the wall time of a run swings with the load, its CPU time much less.
const TICKS_PER_SECOND = 100;
function statOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { ppid: Number(fields[1]), own: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) };
}
function cpuSeconds() {
  const postmaster = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const main = statOf(postmaster);
  let ticks = main.own + main.reaped;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = statOf(entry);
      if (stat.ppid === postmaster) ticks += stat.own;
    } catch {
      // The process ended while we looked.
    }
  }
  const node = process.cpuUsage();
  return { postgres: ticks / TICKS_PER_SECOND, node: (node.user + node.system) / 1e6 };
}

try {
  const start = new Date('2026-01-01T00:00:00Z');
  let now = start;
  const clock = { now: () => now };
  const services = createServices({
    db,
    clock,
    jobs: { send: async () => {} },
    mailTransport: { kind: 'smtp', send: async () => {}, close() {} },
    mailFrom: 'bench@kumo.test',
    authSecret: 'bench-secret-that-is-long-enough-for-hmac',
    publicUrl: 'http://bench.test',
    logger: pino({ level: 'silent' }),
    cloud: { simTimeScale: 1 },
  });

  async function account(subscriptions) {
    const user = randomUUID();
    const acct = randomUUID();
    await q(sql`insert into users (id, email, name, created_at) values (${user}, ${`${user}@bench.test`}, 'Bench', ${start})`);
    await q(sql`insert into accounts (id, owner_user_id, created_at) values (${acct}, ${user}, ${start})`);
    const subs = [];
    for (let i = 0; i < subscriptions; i++) {
      const id = randomUUID();
      await q(sql`insert into subscriptions (id, account_id, name, created_by_user_id, created_at, balance_cents)
                  values (${id}, ${acct}, ${`Bench ${i}`}, ${user}, ${start}, 100000000000)`);
      subs.push(id);
    }
    return { user, acct, subs };
  }
  async function clusters(who, count) {
    await q(sql`insert into clusters (account_id, subscription_id, name, cloud_provider, region, cidr, kumo_version, stack_name, status, status_updated_at, created_by_user_id, created_at)
                select ${who.acct}, (${sql.raw(`array['${who.subs.join("','")}']::uuid[]`)})[1 + (g % ${who.subs.length})], 'c' || g, 'AWS', 'us-east-1', '10.0.0.0/16', '1.4.0', 'bench-' || gen_random_uuid(), 'ONLINE', ${start}, ${who.user}, ${start}
                from generate_series(1, ${count}) g`);
    await q(sql`insert into cluster_audit_logs (cluster_id, event, description, actor_label, created_at)
                select id, 'CLUSTER_RESOURCES_CREATED', 'bench', 'System', ${start} from clusters where account_id = ${who.acct}`);
  }

  // 1. Charging: CLUSTERS clusters running HOURS hours; 6 dimensions each (no DR).
  const charging = await account(1);
  await clusters(charging, CLUSTERS);
  now = new Date(start.getTime() + (HOURS - 1) * HOUR + 1);
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  const result = await services.metering.run();
  const meteringMs = performance.now() - t0;
  const cpu1 = cpuSeconds();
  const replay = await services.metering.run();
  // Plain inserts of the same rows, for the ratio.
  await q(sql`create temp table bench_plain as select * from metering_charges with no data`);
  const t1 = performance.now();
  await q(sql`insert into bench_plain select * from metering_charges`);
  const plainMs = performance.now() - t1;
  console.log(
    `metering: ${result.hours} units charged in ${(meteringMs / 1000).toFixed(1)} s (${Math.round(result.hours / (meteringMs / 1000))}/s); ` +
      `plain inserts of the same rows ${(plainMs / 1000).toFixed(2)} s; throughput ratio metering/plain ${(plainMs / meteringMs).toFixed(3)}; replay charged ${replay.hours}`,
  );
  const postgresCpu = cpu1.postgres - cpu0.postgres;
  const nodeCpu = cpu1.node - cpu0.node;
  console.log(
    `  CPU of the run: PostgreSQL ${postgresCpu.toFixed(2)} s, API process ${nodeCpu.toFixed(2)} s; ` +
      `${(((postgresCpu + nodeCpu) * 1e6) / result.hours).toFixed(1)} µs per unit`,
  );

  // 2. Analysis: ANALYSIS_CLUSTERS clusters over 10 subscriptions, 12 months of daily rollups for 6 dimensions.
  const big = await account(10);
  await clusters(big, ANALYSIS_CLUSTERS);
  const t2 = performance.now();
  await q(sql`insert into metering_daily_rollups (subscription_id, cluster_id, dimension, day, amount_cents, quantity, free_quantity)
              select c.subscription_id, c.id, d, day::date, 100, 24, 0
              from clusters c, unnest(array['BI_SERVER','QUERY_ENGINES','DATA_PROCESS','PERIPHERAL_SERVICES','LOCAL_STORAGE','PERSISTENT_STORAGE']) d,
                   generate_series(date '2025-01-01', date '2025-12-31', interval '1 day') day
              where c.account_id = ${big.acct}
              order by day`);
  await q(sql`insert into metering_monthly_rollups (subscription_id, month, cluster_id, dimension, amount_cents, quantity, free_quantity)
              select subscription_id, date_trunc('month', day)::date, cluster_id, dimension, sum(amount_cents), sum(quantity), sum(free_quantity)
              from metering_daily_rollups where subscription_id in (${sql.raw(`'${big.subs.join("','")}'`)}) group by 1, 2, 3, 4 order by 2, 1, 3, 4`);
  await q(sql`insert into metering_subscription_daily_rollups (subscription_id, day, dimension, amount_cents, quantity, free_quantity)
              select subscription_id, day, dimension, sum(amount_cents), sum(quantity), sum(free_quantity)
              from metering_daily_rollups where subscription_id in (${sql.raw(`'${big.subs.join("','")}'`)}) group by 1, 2, 3 order by 2, 1, 3`);
  await q(sql`analyze`);
  const loadMs = performance.now() - t2;
  now = new Date('2025-12-31T12:00:00Z');
  const bigClusters = (await q(sql`select id from clusters where account_id = ${big.acct} order by id`)).map((row) => row.id);
  const month = '2025-12-01T00:00:00';
  async function measure(name, call) {
    const times = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      await call(i);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    // Nearest rank: the smallest time at least the given share of the calls took no longer than.
    const rank = (share) => times[Math.ceil(times.length * share) - 1].toFixed(1);
    console.log(`  ${name}: p50 ${rank(0.5)} ms, p95 ${rank(0.95)} ms`);
  }
  console.log(`cost calls (${ANALYSIS_CLUSTERS} clusters, 12 months of rollups loaded in ${(loadMs / 1000).toFixed(1)} s), 40 calls each:`);
  await measure('month of one subscription', (i) => services.metering.subscriptionAnalysis(big.acct, big.subs[i % big.subs.length], month));
  await measure('month of one cluster', (i) =>
    services.metering.clusterAnalysis(big.acct, bigClusters[(i * 37) % bigClusters.length], month),
  );
  await measure('overview of the 10 subscriptions', () => services.metering.subscriptionOverview(big.acct, month));
} finally {
  await handle.close();
  rmSync(dataDir, { recursive: true, force: true });
}

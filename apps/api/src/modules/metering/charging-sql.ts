/**
 * The statements of a charging run. They read metering's own tables and the clusters module's published read model
 * (`clusterDirectory`, `clusterUsageChanges`), never the clusters' tables, and name every table and column through
 * its Drizzle object, so a renamed column is a type error here; charging-sql.test.ts keeps their rendered text.
 */
import { sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { METERING_DIMENSIONS, type MeteringDimension } from '@kumo/contract';
import {
  meteringCharges,
  meteringClusters,
  meteringDailyRollups,
  meteringMonthlyRollups,
  meteringSubscriptionDailyRollups,
  serviceRates,
} from './metering.schema.js';
import { clusterDirectory, clusterUsageChanges, type ClusterUsage } from '../clusters/index.js';
import { DEFAULT_RATES, DIMENSION_KIND, FREE_UNIT_SIZE, HOURLY_QUANTITY, REQUESTS_PER_UNIT, round6 } from './rate-card.js';

/** Audit rows are stamped before their transaction commits: a run looks this far behind its last check again. */
export const LATE_WRITE_MARGIN_MS = 5 * 60_000;

/** Column names bare, as an insert's column list, a conflict target or a `set` wants them. */
export const names = (...columns: AnyPgColumn[]) =>
  sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );

/** A usage as the read model spells it. */
const usage = (value: ClusterUsage) => sql.raw(`'${value}'`);

/** An upsert's `set` that adds the new sums to those the rollup row (aliased `r`) holds. */
function addSums(r: { amountCents: AnyPgColumn; quantity: AnyPgColumn; freeQuantity: AnyPgColumn }): SQL {
  return sql.join(
    [r.amountCents, r.quantity, r.freeQuantity].map((column) => sql`${names(column)} = ${column} + excluded.${names(column)}`),
    sql`, `,
  );
}

/** The dimensions as a SQL VALUES table: kind, quantity per hour, free unit size and the default rate. */
function dimensionTable(): SQL {
  const rows = METERING_DIMENSIONS.map((d) => {
    const fallback = DEFAULT_RATES.find((r) => r.dimension === d)!;
    return sql`(${d}::text, ${DIMENSION_KIND[d]}::text, ${String(round6(HOURLY_QUANTITY[d]))}::numeric, ${String(FREE_UNIT_SIZE[d])}::numeric, ${fallback.rateE4}::bigint, ${String(fallback.freeUnits)}::numeric)`;
  });
  return sql`(values ${sql.join(rows, sql`, `)}) as dims(dimension, kind, quantity, free_unit_size, default_rate_e4, default_free_units)`;
}

const QUERY_ENGINES = sql.raw(`'QUERY_ENGINES'`);

/** Storage API requests the cloud counted in one billable hour of a cluster. */
export interface CountedRequests {
  clusterId: string;
  hourStart: Date;
  requests: number;
}

/** Starts following clusters metering has not seen, from their creation: every account's, or only one account's. */
export function registerClustersSql(hourMs: number, accountId?: string): SQL {
  const m = meteringClusters;
  const d = clusterDirectory;
  return sql`
    insert into ${m} (${names(m.clusterId, m.subscriptionId, m.accountId, m.originAt, m.hourMs, m.hasBackup, m.checkedUntil, m.requestsCountedUntil, m.finished)})
    select ${d.clusterId}, ${d.subscriptionId}, ${d.accountId}, ${d.createdAt}, ${hourMs}, ${d.hasBackup}, ${d.createdAt}, ${d.createdAt}, false
    from ${d}
    where not exists (select 1 from ${m} where ${m.clusterId} = ${d.clusterId})${accountId ? sql` and ${d.accountId} = ${accountId}` : sql``}
    on conflict do nothing`;
}

/**
 * Charges every billable hour of the account's clusters that has begun by `now` and is not charged yet, in one
 * statement: state segments from the clusters' usage changes → hours that touch them → price at the rate in effect
 * at the hour, free units first → insert (a charged hour conflicts and is skipped) → add to the rollups (per cluster
 * and day, per cluster and month, per subscription and day), so every rollup always equals the sum of its charges.
 * The storage API requests the cloud counted (`requests`, hours with any) join the hours as they are, in thousands.
 * Answers the new cents and hours per subscription.
 */
export function chargeAccountSql(accountId: string, now: Date, runId: string, requests: readonly CountedRequests[] = []): SQL {
  // `mc` is the CTE of the account's unfinished metering_clusters rows, every column: named through an alias.
  const mc = alias(meteringClusters, 'mc');
  const u = clusterUsageChanges;
  const x = meteringCharges;
  const sr = serviceRates;
  const daily = alias(meteringDailyRollups, 'r');
  const monthly = alias(meteringMonthlyRollups, 'r');
  const subscriptionDaily = alias(meteringSubscriptionDailyRollups, 'r');
  return sql`
        with mc as (
          select * from ${meteringClusters} where ${meteringClusters.accountId} = ${accountId} and not ${meteringClusters.finished}
        ),
        ev as (
          select ${u.clusterId} as cluster_id, ${u.changedAt} as at, ${u.seq} as seq, ${u.queryEngineCores} as cores,
                 case ${u.usage} when ${usage('running')} then 2 when ${usage('stopped')} then 1 else 0 end as state
          from ${u} join mc on ${mc.clusterId} = ${u.clusterId}
          where ${u.changedAt} <= ${now}
        ),
        seg as (
          select cluster_id, state, cores, at as a, lead(at) over (partition by cluster_id order by at, seq) as b from ev
        ),
        clipped as (
          select s.cluster_id, s.state, s.cores, ${mc.subscriptionId}, ${mc.accountId}, ${mc.originAt}, ${mc.hourMs}, ${mc.hasBackup},
                 greatest(s.a, ${mc.checkedUntil} - (${mc.hourMs} + ${LATE_WRITE_MARGIN_MS}) * interval '1 millisecond') as a,
                 least(coalesce(s.b, ${now}::timestamptz), ${now}::timestamptz) as b
          from seg s join mc on ${mc.clusterId} = s.cluster_id
          where s.state > 0
        ),
        cand as (
          -- Every dimension but the query engines is charged as the hour begins, for its fixed quantity.
          select c.cluster_id, dims.dimension, c.subscription_id, c.account_id,
                 c.origin_at + (n * c.hour_ms) * interval '1 millisecond' as hour_start, max(dims.quantity) as quantity
          from clipped c
          cross join lateral generate_series(
            floor(extract(epoch from (c.a - c.origin_at)) * 1000 / c.hour_ms)::bigint,
            (ceil(extract(epoch from (c.b - c.origin_at)) * 1000 / c.hour_ms) - 1)::bigint
          ) as n
          join ${dimensionTable()}
            on dims.dimension <> ${QUERY_ENGINES}
            and (dims.kind = 'storage' or (dims.kind = 'compute' and c.state = 2) or (dims.kind = 'backup' and c.has_backup))
          where c.b > c.a
          group by c.cluster_id, dims.dimension, c.subscription_id, c.account_id, hour_start${engineHours(now)}${countedRequests(requests)}
        ),
        rates as (
          select ${sr.dimension}, ${sr.rateE4}, ${sr.freeUnits}, ${sr.effectiveFrom},
                 lead(${sr.effectiveFrom}) over (partition by ${sr.dimension} order by ${sr.effectiveFrom}) as until
          from ${sr} where ${sr.accountId} = ${accountId}
        ),
        fresh as (
          select c.*,
                 coalesce(r.rate_e4, dims.default_rate_e4) as rate_e4,
                 coalesce(r.free_units, dims.default_free_units) * dims.free_unit_size as allowance,
                 date_trunc('month', c.hour_start at time zone 'UTC') as month
          from cand c
          join ${dimensionTable()} on dims.dimension = c.dimension
          left join rates r
            on r.dimension = c.dimension and r.effective_from <= c.hour_start and (r.until is null or c.hour_start < r.until)
          where not exists (
            select 1 from ${x} where ${x.clusterId} = c.cluster_id and ${x.dimension} = c.dimension and ${x.hourStart} = c.hour_start
          )
        ),
        used as (
          select ${x.dimension}, date_trunc('month', ${x.hourStart} at time zone 'UTC') as month, sum(${x.freeQuantity}) as used
          from ${x}
          where ${x.accountId} = ${accountId} and ${x.freeQuantity} > 0
            and ${x.hourStart} >= (select min(month) from fresh) at time zone 'UTC'
          group by 1, 2
        ),
        priced as (
          -- In hour order each hour takes what its allowance leaves of the month's free units (metering_free_used:
          -- those taken by the hours before it); hours without an allowance take none and need no window.
          select f.cluster_id, f.dimension, f.hour_start, f.subscription_id, f.account_id, f.quantity, f.rate_e4,
                 round(greatest(0, least(f.quantity, f.allowance - coalesce(
                   metering_free_used(f.quantity, f.allowance, coalesce(u.used, 0)) over w, coalesce(u.used, 0)))), 6) as free_quantity
          from fresh f left join used u on u.dimension = f.dimension and u.month = f.month
          where f.allowance > 0
          window w as (partition by f.dimension, f.month order by f.hour_start, f.cluster_id rows between unbounded preceding and 1 preceding)
          union all
          select cluster_id, dimension, hour_start, subscription_id, account_id, quantity, rate_e4, 0 from fresh where allowance = 0
        ),
        ins as (
          insert into ${x}
            (${names(x.clusterId, x.dimension, x.hourStart, x.subscriptionId, x.accountId, x.quantity, x.freeQuantity, x.rateE4, x.amountCents, x.runId, x.chargedAt)})
          select cluster_id, dimension, hour_start, subscription_id, account_id, quantity, free_quantity, rate_e4,
                 round((quantity - free_quantity) * rate_e4 / 100)::bigint, ${runId}, ${now}
          from priced
          on conflict do nothing
          returning ${names(x.subscriptionId, x.clusterId, x.dimension, x.hourStart, x.quantity, x.freeQuantity, x.amountCents)}
        ),
        day_sums as (
          select subscription_id, cluster_id, dimension, (hour_start at time zone 'UTC')::date as day,
                 sum(amount_cents) as amount_cents, sum(quantity) as quantity, sum(free_quantity) as free_quantity, count(*) as hours
          from ins group by 1, 2, 3, 4
        ),
        daily as (
          insert into ${meteringDailyRollups} as r
            (${names(daily.subscriptionId, daily.clusterId, daily.dimension, daily.day, daily.amountCents, daily.quantity, daily.freeQuantity)})
          select subscription_id, cluster_id, dimension, day, amount_cents, quantity, free_quantity from day_sums
          on conflict (${names(daily.subscriptionId, daily.day, daily.clusterId, daily.dimension)}) do update
            set ${addSums(daily)}
        ),
        monthly as (
          insert into ${meteringMonthlyRollups} as r
            (${names(monthly.subscriptionId, monthly.month, monthly.clusterId, monthly.dimension, monthly.amountCents, monthly.quantity, monthly.freeQuantity)})
          select subscription_id, date_trunc('month', day)::date, cluster_id, dimension, sum(amount_cents), sum(quantity), sum(free_quantity)
          from day_sums group by 1, 2, 3, 4
          on conflict (${names(monthly.subscriptionId, monthly.month, monthly.clusterId, monthly.dimension)}) do update
            set ${addSums(monthly)}
        ),
        subscription_daily as (
          insert into ${meteringSubscriptionDailyRollups} as r
            (${names(subscriptionDaily.subscriptionId, subscriptionDaily.day, subscriptionDaily.dimension, subscriptionDaily.amountCents, subscriptionDaily.quantity, subscriptionDaily.freeQuantity)})
          select subscription_id, day, dimension, sum(amount_cents), sum(quantity), sum(free_quantity)
          from day_sums group by 1, 2, 3
          on conflict (${names(subscriptionDaily.subscriptionId, subscriptionDaily.day, subscriptionDaily.dimension)}) do update
            set ${addSums(subscriptionDaily)}
        )
        select subscription_id, sum(amount_cents)::text as cents, sum(hours)::int as hours
        from day_sums group by subscription_id order by subscription_id`;
}

/**
 * The query engines' hours that have ended (and settled), each for the core-hours that ran in it: every running
 * stretch's cores times its share of the hour, so 20 minutes at 80 cores and 40 at 96 are 26.666667 + 64 core-hours
 * (docs/metering.md, Charged by the shape that ran). Stretches are read whole, not clipped: an hour's sum needs all of
 * them. The hours looked at go back as far as an hour that ended since the last check could begin.
 */
function engineHours(now: Date): SQL {
  const mc = alias(meteringClusters, 'mc');
  const settle = sql`least(${LATE_WRITE_MARGIN_MS}, ${mc.hourMs})`;
  const lookBack = sql`(${mc.hourMs} + ${LATE_WRITE_MARGIN_MS} + ${settle})`;
  const hourStart = sql`${mc.originAt} + (n * ${mc.hourMs}) * interval '1 millisecond'`;
  const hourEnd = sql`${mc.originAt} + ((n + 1) * ${mc.hourMs}) * interval '1 millisecond'`;
  const ms = (moment: SQL) => sql`extract(epoch from (${moment} - ${mc.originAt})) * 1000`;
  return sql`
          union all
          select s.cluster_id, ${QUERY_ENGINES}, ${mc.subscriptionId}, ${mc.accountId}, ${hourStart},
                 round(sum(s.cores * extract(epoch from (least(coalesce(s.b, ${now}::timestamptz), ${hourEnd}) - greatest(s.a, ${hourStart})))
                   * 1000 / ${mc.hourMs}), 6)
          from seg s
          join mc on ${mc.clusterId} = s.cluster_id
          cross join lateral generate_series(
            greatest(floor(${ms(sql`s.a`)} / ${mc.hourMs}), floor((${ms(sql`${mc.checkedUntil}`)} - ${lookBack}) / ${mc.hourMs}), 0)::bigint,
            least(ceil(${ms(sql`coalesce(s.b, ${now}::timestamptz)`)} / ${mc.hourMs}) - 1,
                  floor((${ms(sql`${now}::timestamptz`)} - ${settle}) / ${mc.hourMs}) - 1)::bigint
          ) as n
          where s.state = 2 and s.cores is not null
          group by s.cluster_id, ${mc.subscriptionId}, ${mc.accountId}, n, ${mc.originAt}, ${mc.hourMs}
          having sum(s.cores * extract(epoch from (least(coalesce(s.b, ${now}::timestamptz), ${hourEnd}) - greatest(s.a, ${hourStart})))) > 0`;
}

/** The hours whose requests were counted, as rows of `cand`; nothing when none were (the usual statement). */
function countedRequests(requests: readonly CountedRequests[]): SQL {
  const counted = requests.filter((r) => r.requests > 0);
  if (counted.length === 0) return sql``;
  const mc = alias(meteringClusters, 'mc');
  const dimension: MeteringDimension = 'PERSISTENT_STORAGE_REQUESTS';
  return sql`
          union all
          select q.cluster_id, ${dimension}::text, ${mc.subscriptionId}, ${mc.accountId}, q.hour_start, q.requests / ${REQUESTS_PER_UNIT}
          from unnest(${sql.param(counted.map((r) => r.clusterId))}::uuid[], ${sql.param(counted.map((r) => r.hourStart.toISOString()))}::timestamptz[],
                      ${sql.param(counted.map((r) => r.requests))}::numeric[]) as q(cluster_id, hour_start, requests)
          join mc on ${mc.clusterId} = q.cluster_id`;
}

/** Advances the clusters' mark of counted storage requests to the end of the hours counted. */
export function markRequestsCountedSql(counted: readonly { clusterId: string; until: Date }[]): SQL {
  const m = meteringClusters;
  return sql`
    update ${m} set ${names(m.requestsCountedUntil)} = greatest(${m.requestsCountedUntil}, q.until)
    from unnest(${sql.param(counted.map((c) => c.clusterId))}::uuid[], ${sql.param(counted.map((c) => c.until.toISOString()))}::timestamptz[]) as q(cluster_id, until)
    where ${m.clusterId} = q.cluster_id`;
}

/**
 * Moves the account's check mark to `now`; a deleted cluster is finished once its deletion is safely behind, and so the
 * last hour its query engines ran in, charged when it has ended.
 */
export function markCheckedSql(accountId: string, now: Date): SQL {
  const m = meteringClusters;
  const u = clusterUsageChanges;
  return sql`
    update ${m}
    set ${names(m.checkedUntil)} = ${now},
        ${names(m.finished)} = exists (
          select 1 from ${u}
          where ${u.clusterId} = ${m.clusterId} and ${u.deleted}
            and ${u.changedAt} < ${now}::timestamptz - (${m.hourMs} + ${LATE_WRITE_MARGIN_MS}) * interval '1 millisecond'
        )
    where ${m.accountId} = ${accountId} and not ${m.finished}`;
}

import { sql, type SQL } from 'drizzle-orm';
import { METERING_DIMENSIONS, type MeteringDimension } from '@kumo/contract';
import type { Database, DbOrTx, Tx } from '../../db/client.js';
import { DEFAULT_RATES, DIMENSION_KIND, FREE_UNIT_SIZE, HOURLY_QUANTITY, round6, type Rate } from './rate-card.js';

/** Audit events that change what a cluster uses: 2 = nodes run (compute and storage), 1 = stopped (storage), 0 = gone. */
const RUNNING_EVENTS = ['CLUSTER_RESOURCES_CREATED', 'CLUSTER_START_REQUESTED', 'CLUSTER_STARTED', 'CLUSTER_DEPLOYED'];
const STOPPED_EVENTS = ['CLUSTER_STOPPED'];
const GONE_EVENTS = ['CLUSTER_DEPLOYMENT_FAILED', 'CLUSTER_DELETED'];
/** Audit rows are stamped before their transaction commits: a run looks this far behind its last check again. */
export const LATE_WRITE_MARGIN_MS = 5 * 60_000;

const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** The dimensions as a SQL VALUES table: kind, quantity per hour, free unit size and the default rate. */
function dimensionTable(): SQL {
  const rows = METERING_DIMENSIONS.map((d) => {
    const fallback = DEFAULT_RATES.find((r) => r.dimension === d)!;
    return sql`(${d}::text, ${DIMENSION_KIND[d]}::text, ${String(round6(HOURLY_QUANTITY[d]))}::numeric, ${String(FREE_UNIT_SIZE[d])}::numeric, ${fallback.rateE4}::bigint, ${String(fallback.freeUnits)}::numeric)`;
  });
  return sql`(values ${sql.join(rows, sql`, `)}) as dims(dimension, kind, quantity, free_unit_size, default_rate_e4, default_free_units)`;
}

/** node-postgres answers raw SQL with its rows; the generic database type does not say so. */
async function run<T>(tx: DbOrTx, query: SQL): Promise<{ rows: T[] }> {
  return (await tx.execute(query)) as unknown as { rows: T[] };
}

export interface Totals {
  subscriptionId: string;
  cents: number;
  hours: number;
}

/** What the cost screens read: one subscription's clusters, or one of them. */
export interface Scope {
  subscriptionId: string;
  clusterId?: string;
}

/** Charges summed over some rows of one dimension. */
export interface Sums {
  dimension: MeteringDimension;
  amountCents: number;
  quantity: number;
  freeQuantity: number;
}
export type DaySums = Sums & { day: string };
export type ClusterSums = Sums & { clusterId: string };

interface SumsRow {
  dimension: string;
  amount_cents: string;
  quantity: string;
  free_quantity: string;
}
const sums = (row: SumsRow): Sums => ({
  dimension: row.dimension as MeteringDimension,
  amountCents: Number(row.amount_cents),
  quantity: Number(row.quantity),
  freeQuantity: Number(row.free_quantity),
});

export function createMeteringRepository(db: Database) {
  return {
    /** Starts following clusters metering has not seen, from their creation; those already gone are finished at once. */
    async registerClusters(hourMs: number, now: Date, tx: DbOrTx = db): Promise<void> {
      await tx.execute(sql`
        insert into metering_clusters (cluster_id, subscription_id, account_id, origin_at, hour_ms, has_backup, checked_until, finished)
        select c.id, c.subscription_id, c.account_id, c.created_at, ${hourMs}, c.backup_region is not null,
               c.created_at,
               false
        from clusters c
        where not exists (select 1 from metering_clusters m where m.cluster_id = c.id)
        on conflict do nothing`);
    },

    async accountsToMeter(tx: DbOrTx = db): Promise<string[]> {
      const result = await run<{ account_id: string }>(
        tx,
        sql`select distinct account_id from metering_clusters where not finished order by account_id`,
      );
      return result.rows.map((row) => row.account_id);
    },

    /** Serialises metering of one account (free units are counted per account) for the rest of the transaction. */
    async lockAccount(accountId: string, tx: Tx): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('metering'), hashtext(${accountId}))`);
    },

    /**
     * Charges every billable hour of the account's clusters that has begun by `now` and is not charged yet, in one
     * statement: state segments from the audit log → hours that touch them → price at the rate in effect at the
     * hour, free units first → insert (a charged hour conflicts and is skipped) → add to the rollups (per cluster and
     * day, per cluster and month, per subscription and day), so every rollup always equals the sum of its charges.
     * Returns the new cents per subscription.
     */
    async chargeAccount(accountId: string, now: Date, runId: string, tx: Tx): Promise<Totals[]> {
      const result = await run<{ subscription_id: string; cents: string; hours: number }>(
        tx,
        sql`
        with mc as (
          select * from metering_clusters where account_id = ${accountId} and not finished
        ),
        ev as (
          select l.cluster_id, l.created_at as at, l.seq,
                 case when l.event in (${list(RUNNING_EVENTS)}) then 2 when l.event in (${list(STOPPED_EVENTS)}) then 1 else 0 end as state
          from cluster_audit_logs l join mc on mc.cluster_id = l.cluster_id
          where l.event in (${list([...RUNNING_EVENTS, ...STOPPED_EVENTS, ...GONE_EVENTS])}) and l.created_at <= ${now}
        ),
        seg as (
          select cluster_id, state, at as a, lead(at) over (partition by cluster_id order by at, seq) as b from ev
        ),
        clipped as (
          select s.cluster_id, s.state, mc.subscription_id, mc.account_id, mc.origin_at, mc.hour_ms, mc.has_backup,
                 greatest(s.a, mc.checked_until - (mc.hour_ms + ${LATE_WRITE_MARGIN_MS}) * interval '1 millisecond') as a,
                 least(coalesce(s.b, ${now}::timestamptz), ${now}::timestamptz) as b
          from seg s join mc on mc.cluster_id = s.cluster_id
          where s.state > 0
        ),
        cand as (
          select distinct c.cluster_id, dims.dimension, c.subscription_id, c.account_id,
                 c.origin_at + (n * c.hour_ms) * interval '1 millisecond' as hour_start
          from clipped c
          cross join lateral generate_series(
            floor(extract(epoch from (c.a - c.origin_at)) * 1000 / c.hour_ms)::bigint,
            (ceil(extract(epoch from (c.b - c.origin_at)) * 1000 / c.hour_ms) - 1)::bigint
          ) as n
          join ${dimensionTable()}
            on dims.kind = 'storage' or (dims.kind = 'compute' and c.state = 2) or (dims.kind = 'backup' and c.has_backup)
          where c.b > c.a
        ),
        rates as (
          select dimension, rate_e4, free_units, effective_from,
                 lead(effective_from) over (partition by dimension order by effective_from) as until
          from service_rates where account_id = ${accountId}
        ),
        fresh as (
          select c.*, dims.quantity,
                 coalesce(r.rate_e4, dims.default_rate_e4) as rate_e4,
                 coalesce(r.free_units, dims.default_free_units) * dims.free_unit_size as allowance,
                 date_trunc('month', c.hour_start at time zone 'UTC') as month
          from cand c
          join ${dimensionTable()} on dims.dimension = c.dimension
          left join rates r
            on r.dimension = c.dimension and r.effective_from <= c.hour_start and (r.until is null or c.hour_start < r.until)
          where not exists (
            select 1 from metering_charges x where x.cluster_id = c.cluster_id and x.dimension = c.dimension and x.hour_start = c.hour_start
          )
        ),
        used as (
          select x.dimension, date_trunc('month', x.hour_start at time zone 'UTC') as month, sum(x.free_quantity) as used
          from metering_charges x
          where x.account_id = ${accountId} and x.free_quantity > 0
            and x.hour_start >= (select min(month) from fresh) at time zone 'UTC'
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
          insert into metering_charges
            (cluster_id, dimension, hour_start, subscription_id, account_id, quantity, free_quantity, rate_e4, amount_cents, run_id, charged_at)
          select cluster_id, dimension, hour_start, subscription_id, account_id, quantity, free_quantity, rate_e4,
                 round((quantity - free_quantity) * rate_e4 / 100)::bigint, ${runId}, ${now}
          from priced
          on conflict do nothing
          returning subscription_id, cluster_id, dimension, hour_start, quantity, free_quantity, amount_cents
        ),
        day_sums as (
          select subscription_id, cluster_id, dimension, (hour_start at time zone 'UTC')::date as day,
                 sum(amount_cents) as amount_cents, sum(quantity) as quantity, sum(free_quantity) as free_quantity, count(*) as hours
          from ins group by 1, 2, 3, 4
        ),
        daily as (
          insert into metering_daily_rollups as r (subscription_id, cluster_id, dimension, day, amount_cents, quantity, free_quantity)
          select subscription_id, cluster_id, dimension, day, amount_cents, quantity, free_quantity from day_sums
          on conflict (subscription_id, day, cluster_id, dimension) do update
            set amount_cents = r.amount_cents + excluded.amount_cents,
                quantity = r.quantity + excluded.quantity,
                free_quantity = r.free_quantity + excluded.free_quantity
        ),
        monthly as (
          insert into metering_monthly_rollups as r (subscription_id, month, cluster_id, dimension, amount_cents, quantity, free_quantity)
          select subscription_id, date_trunc('month', day)::date, cluster_id, dimension, sum(amount_cents), sum(quantity), sum(free_quantity)
          from day_sums group by 1, 2, 3, 4
          on conflict (subscription_id, month, cluster_id, dimension) do update
            set amount_cents = r.amount_cents + excluded.amount_cents,
                quantity = r.quantity + excluded.quantity,
                free_quantity = r.free_quantity + excluded.free_quantity
        ),
        subscription_daily as (
          insert into metering_subscription_daily_rollups as r (subscription_id, day, dimension, amount_cents, quantity, free_quantity)
          select subscription_id, day, dimension, sum(amount_cents), sum(quantity), sum(free_quantity)
          from day_sums group by 1, 2, 3
          on conflict (subscription_id, day, dimension) do update
            set amount_cents = r.amount_cents + excluded.amount_cents,
                quantity = r.quantity + excluded.quantity,
                free_quantity = r.free_quantity + excluded.free_quantity
        )
        select subscription_id, sum(amount_cents)::text as cents, sum(hours)::int as hours
        from day_sums group by subscription_id order by subscription_id`,
      );
      return result.rows.map((row) => ({ subscriptionId: row.subscription_id, cents: Number(row.cents), hours: row.hours }));
    },

    /** Moves the account's check mark to `now`; a deleted cluster is finished once its deletion is safely behind. */
    async markChecked(accountId: string, now: Date, tx: Tx): Promise<void> {
      await tx.execute(sql`
        update metering_clusters m
        set checked_until = ${now},
            finished = exists (
              select 1 from cluster_audit_logs l
              where l.cluster_id = m.cluster_id and l.event = 'CLUSTER_DELETED'
                and l.created_at < ${now}::timestamptz - ${LATE_WRITE_MARGIN_MS} * interval '1 millisecond'
            )
        where m.account_id = ${accountId} and not m.finished`);
    },

    // ------------------------------------------------------------------ rates

    /** The account's rate rows, newest first (the history). */
    async rateRows(accountId: string, tx: DbOrTx = db) {
      const result = await run<{ dimension: string; rate_e4: string; free_units: string; effective_from: Date | string }>(
        tx,
        sql`
        select dimension, rate_e4::text, free_units::text, effective_from from service_rates
        where account_id = ${accountId} order by effective_from desc, dimension`,
      );
      return result.rows.map((row) => ({
        dimension: row.dimension as MeteringDimension,
        rateE4: Number(row.rate_e4),
        freeUnits: Number(row.free_units),
        effectiveFrom: new Date(row.effective_from),
      }));
    },

    async insertRates(
      accountId: string,
      rates: readonly Rate[],
      effectiveFrom: Date,
      actorUserId: string | null,
      now: Date,
      tx: DbOrTx = db,
    ) {
      for (const rate of rates) {
        await tx.execute(sql`
          insert into service_rates (account_id, dimension, rate_e4, free_units, effective_from, created_by_user_id, created_at)
          values (${accountId}, ${rate.dimension}, ${rate.rateE4}, ${String(rate.freeUnits)}, ${effectiveFrom}, ${actorUserId}, ${now})
          on conflict (account_id, dimension, effective_from) do update set rate_e4 = excluded.rate_e4, free_units = excluded.free_units`);
      }
    },

    // ------------------------------------------------------------------ reading

    /**
     * A month's sums per day and dimension, read from the rollups that already hold them: of all the subscription's
     * clusters, or of one cluster. Days from `fromDay` (inclusive) to `toDay` (exclusive).
     */
    async dailySums(scope: Scope, fromDay: string, toDay: string, tx: DbOrTx = db): Promise<DaySums[]> {
      const from = scope.clusterId
        ? sql`metering_daily_rollups where subscription_id = ${scope.subscriptionId} and cluster_id = ${scope.clusterId}`
        : sql`metering_subscription_daily_rollups where subscription_id = ${scope.subscriptionId}`;
      const result = await run<SumsRow & { day: string }>(
        tx,
        sql`
        select to_char(day, 'YYYY-MM-DD') as day, dimension, amount_cents::text, quantity::text, free_quantity::text
        from ${from} and day >= ${fromDay}::date and day < ${toDay}::date`,
      );
      return result.rows.map((row) => ({ day: row.day, ...sums(row) }));
    },

    /** A month's sums per cluster and dimension, of the subscription's clusters (or of one). `month` is its first day. */
    async clusterSums(scope: Scope, month: string, tx: DbOrTx = db): Promise<ClusterSums[]> {
      const result = await run<SumsRow & { cluster_id: string }>(
        tx,
        sql`
        select cluster_id, dimension, amount_cents::text, quantity::text, free_quantity::text
        from metering_monthly_rollups
        where subscription_id = ${scope.subscriptionId} and month = ${month}::date
          ${scope.clusterId ? sql`and cluster_id = ${scope.clusterId}` : sql``}`,
      );
      return result.rows.map((row) => ({ clusterId: row.cluster_id, ...sums(row) }));
    },

    /** Charged cents per month (its first day) from `fromMonth` to `toMonth` (exclusive); months without charges are absent. */
    async monthlyCents(scope: Scope, fromMonth: string, toMonth: string, tx: DbOrTx = db) {
      // Grouped by the month's date, so each month is formatted once rather than each row.
      const query = scope.clusterId
        ? sql`select to_char(month, 'YYYY-MM-DD') as month, sum(amount_cents)::text as cents from metering_monthly_rollups
              where subscription_id = ${scope.subscriptionId} and cluster_id = ${scope.clusterId}
                and month >= ${fromMonth}::date and month < ${toMonth}::date group by 1`
        : sql`select to_char(date_trunc('month', day), 'YYYY-MM-DD') as month, sum(amount_cents)::text as cents
              from metering_subscription_daily_rollups
              where subscription_id = ${scope.subscriptionId} and day >= ${fromMonth}::date and day < ${toMonth}::date
              group by date_trunc('month', day)`;
      const result = await run<{ month: string; cents: string }>(tx, query);
      return new Map(result.rows.map((row) => [row.month, Number(row.cents)]));
    },

    /** Charged cents of each of the subscriptions between two days (from inclusive, to exclusive). */
    async subscriptionCents(subscriptionIds: string[], fromDay: string, toDay: string, tx: DbOrTx = db) {
      if (subscriptionIds.length === 0) return new Map<string, number>();
      const result = await run<{ subscription_id: string; cents: string }>(
        tx,
        sql`
        select subscription_id, sum(amount_cents)::text as cents from metering_subscription_daily_rollups
        where subscription_id in (${list(subscriptionIds)}) and day >= ${fromDay}::date and day < ${toDay}::date
        group by 1`,
      );
      return new Map(result.rows.map((row) => [row.subscription_id, Number(row.cents)]));
    },

    /** The account's clusters metering knows (names and status read from the clusters' table), scoped to the account. */
    async clustersOf(accountId: string, filter: { subscriptionId?: string; clusterId?: string }, tx: DbOrTx = db) {
      const result = await run<{
        id: string;
        name: string;
        subscription_id: string;
        status: string;
        status_updated_at: Date | string;
        backup_region: string | null;
        deleted_at: Date | string | null;
      }>(
        tx,
        sql`
        select id, name, subscription_id, status, status_updated_at, backup_region, deleted_at from clusters
        where account_id = ${accountId}
          ${filter.subscriptionId ? sql`and subscription_id = ${filter.subscriptionId}` : sql``}
          ${filter.clusterId ? sql`and id = ${filter.clusterId}` : sql``}
        order by created_at, id`,
      );
      return result.rows.map((row) => ({
        id: row.id,
        name: row.name,
        subscriptionId: row.subscription_id,
        status: row.status,
        statusUpdatedAt: new Date(row.status_updated_at),
        hasBackup: row.backup_region !== null,
        deleted: row.deleted_at !== null,
      }));
    },

    /** Sum of all charges of some subscriptions (the property test's and the checks' ground truth). */
    async chargedCents(subscriptionIds: string[], tx: DbOrTx = db): Promise<number> {
      if (subscriptionIds.length === 0) return 0;
      const result = await run<{ cents: string }>(
        tx,
        sql`select coalesce(sum(amount_cents), 0)::text as cents from metering_charges where subscription_id in (${list(subscriptionIds)})`,
      );
      return Number(result.rows[0]?.cents ?? 0);
    },

    /** Accounts with free credits left that expire between now and `until` (read-only look at the ledger's grants). */
    async accountsWithCreditsExpiring(now: Date, until: Date, tx: DbOrTx = db): Promise<string[]> {
      const result = await run<{ account_id: string }>(
        tx,
        sql`select distinct s.account_id from credit_grants g join subscriptions s on s.id = g.subscription_id
            where g.expired_at is null and g.remaining_cents > 0 and g.expires_at > ${now} and g.expires_at <= ${until}`,
      );
      return result.rows.map((row) => row.account_id);
    },

    /** Sets a dated mark (a report logout), replacing an earlier one. */
    async setMark(key: string, accountId: string, now: Date, tx: DbOrTx = db): Promise<void> {
      await tx.execute(
        sql`insert into metering_notices (key, account_id, sent_at) values (${key}, ${accountId}, ${now}) on conflict (key) do update set sent_at = excluded.sent_at`,
      );
    },

    async mark(key: string, tx: DbOrTx = db): Promise<Date | null> {
      const result = await run<{ sent_at: Date | string }>(tx, sql`select sent_at from metering_notices where key = ${key}`);
      return result.rows[0] ? new Date(result.rows[0].sent_at) : null;
    },

    /** Records a notice once; false when it was sent before. */
    async claimNotice(key: string, accountId: string, now: Date, tx: DbOrTx = db): Promise<boolean> {
      const result = await run<{ key: string }>(
        tx,
        sql`insert into metering_notices (key, account_id, sent_at) values (${key}, ${accountId}, ${now}) on conflict do nothing returning key`,
      );
      return result.rows.length > 0;
    },
  };
}
export type MeteringRepository = ReturnType<typeof createMeteringRepository>;

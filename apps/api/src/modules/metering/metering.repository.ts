import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { CLUSTER_SIZES, type MeteringDimension } from '@kumo/contract';
import type { Database, DbOrTx, Tx } from '../../db/client.js';
import {
  meteringCharges,
  meteringClusters,
  meteringDailyRollups,
  meteringMonthlyRollups,
  meteringNotices,
  meteringSubscriptionDailyRollups,
  serviceRates,
} from './metering.schema.js';
import { clusterDirectory, type ClusterUsage } from '../clusters/index.js';
import {
  chargeAccountSql,
  markCheckedSql,
  markRequestsCountedSql,
  names,
  registerClustersSql,
  type CountedRequests,
} from './charging-sql.js';
import type { Rate } from './rate-card.js';

/** node-postgres answers raw SQL with its rows; the generic database type does not say so. */
async function run<T>(tx: DbOrTx, query: SQL): Promise<{ rows: T[] }> {
  return (await tx.execute(query)) as unknown as { rows: T[] };
}

/**
 * What the account's clusters use now, grouped, in fixed text: every subscription list and cost screen reads it, and
 * building it from the schema's objects on each call cost more than PostgreSQL's answer.
 */
const CORES_OF_SHAPE = `(case size ${CLUSTER_SIZES.map((s) => `when '${s.size}' then ${s.cores}`).join(' ')} end) * query_engines`;
const USAGE_MIX_OF_ACCOUNT = sql.raw(`
  select subscription_id, usage, has_backup, ${CORES_OF_SHAPE} as query_engine_cores, count(*)::int as count
  from "cluster_directory"
  where usage <> 'none' and account_id = `);
const AND_CLUSTER = sql.raw(' and cluster_id = ');
const USAGE_GROUPS = sql.raw(' group by subscription_id, usage, has_backup, query_engine_cores');

interface UsageMixRow {
  subscription_id: string;
  usage: ClusterUsage;
  has_backup: boolean;
  query_engine_cores: number;
  count: number;
}

/** One UTC day's charges of a cluster, in cents. */
export interface ClusterChargeDay {
  day: string;
  amountCents: number;
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
    /**
     * Starts following clusters metering has not seen, from their creation (a deleted one is finished by markChecked):
     * every account's, or only `accountId`'s.
     */
    async registerClusters(hourMs: number, accountId?: string, tx: DbOrTx = db): Promise<void> {
      await tx.execute(registerClustersSql(hourMs, accountId));
    },

    async accountsToMeter(tx: DbOrTx = db): Promise<string[]> {
      const result = await run<{ account_id: string }>(
        tx,
        sql`select distinct ${meteringClusters.accountId} from ${meteringClusters} where not ${meteringClusters.finished} order by 1`,
      );
      return result.rows.map((row) => row.account_id);
    },

    /** Serialises metering of one account (free units are counted per account) for the rest of the transaction. */
    async lockAccount(accountId: string, tx: Tx): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('metering'), hashtext(${accountId}))`);
    },

    /** The account's followed clusters, with where their billable hours start and how far their requests are counted. */
    async requestMarks(accountId: string, tx: DbOrTx = db) {
      const m = meteringClusters;
      return tx
        .select({ clusterId: m.clusterId, originAt: m.originAt, hourMs: m.hourMs, countedUntil: m.requestsCountedUntil })
        .from(m)
        .where(and(eq(m.accountId, accountId), eq(m.finished, false)));
    },

    /** Advances the clusters' mark of counted storage requests (in the charging transaction). */
    async markRequestsCounted(counted: readonly { clusterId: string; until: Date }[], tx: Tx): Promise<void> {
      if (counted.length > 0) await tx.execute(markRequestsCountedSql(counted));
    },

    /**
     * Charges the account's new billable hours and the storage requests counted for it (charging-sql.ts); answers the
     * new cents and hours per subscription.
     */
    async chargeAccount(accountId: string, now: Date, runId: string, tx: Tx, requests: readonly CountedRequests[] = []): Promise<Totals[]> {
      const result = await run<{ subscription_id: string; cents: string; hours: number }>(
        tx,
        chargeAccountSql(accountId, now, runId, requests),
      );
      return result.rows.map((row) => ({ subscriptionId: row.subscription_id, cents: Number(row.cents), hours: row.hours }));
    },

    /** Moves the account's check mark to `now`; a deleted cluster is finished once its deletion is safely behind. */
    async markChecked(accountId: string, now: Date, tx: Tx): Promise<void> {
      await tx.execute(markCheckedSql(accountId, now));
    },

    // ------------------------------------------------------------------ rates

    /** The account's rate rows, newest first (the history). */
    async rateRows(accountId: string, tx: DbOrTx = db) {
      const r = serviceRates;
      const result = await run<{ dimension: string; rate_e4: string; free_units: string; effective_from: Date | string }>(
        tx,
        sql`
        select ${r.dimension}, ${r.rateE4}::text, ${r.freeUnits}::text, ${r.effectiveFrom} from ${r}
        where ${r.accountId} = ${accountId} order by ${r.effectiveFrom} desc, ${r.dimension}`,
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
      const r = serviceRates;
      for (const rate of rates) {
        await tx.execute(sql`
          insert into ${r} (${names(r.accountId, r.dimension, r.rateE4, r.freeUnits, r.effectiveFrom, r.createdByUserId, r.createdAt)})
          values (${accountId}, ${rate.dimension}, ${rate.rateE4}, ${String(rate.freeUnits)}, ${effectiveFrom}, ${actorUserId}, ${now})
          on conflict (${names(r.accountId, r.dimension, r.effectiveFrom)})
          do update set ${names(r.rateE4)} = excluded.${names(r.rateE4)}, ${names(r.freeUnits)} = excluded.${names(r.freeUnits)}`);
      }
    },

    // ------------------------------------------------------------------ reading

    /**
     * A month's sums per day and dimension, read from the rollups that already hold them: of all the subscription's
     * clusters, or of one cluster. Days from `fromDay` (inclusive) to `toDay` (exclusive).
     */
    async dailySums(scope: Scope, fromDay: string, toDay: string, tx: DbOrTx = db): Promise<DaySums[]> {
      const r = scope.clusterId ? meteringDailyRollups : meteringSubscriptionDailyRollups;
      const ofCluster = scope.clusterId ? sql` and ${meteringDailyRollups.clusterId} = ${scope.clusterId}` : sql``;
      const result = await run<SumsRow & { day: string }>(
        tx,
        sql`
        select to_char(${r.day}, 'YYYY-MM-DD') as day, ${r.dimension}, ${r.amountCents}::text, ${r.quantity}::text, ${r.freeQuantity}::text
        from ${r} where ${r.subscriptionId} = ${scope.subscriptionId}${ofCluster} and ${r.day} >= ${fromDay}::date and ${r.day} < ${toDay}::date`,
      );
      return result.rows.map((row) => ({ day: row.day, ...sums(row) }));
    },

    /** A month's sums per cluster and dimension, of the subscription's clusters (or of one). `month` is its first day. */
    async clusterSums(scope: Scope, month: string, tx: DbOrTx = db): Promise<ClusterSums[]> {
      const r = meteringMonthlyRollups;
      const result = await run<SumsRow & { cluster_id: string }>(
        tx,
        sql`
        select ${r.clusterId}, ${r.dimension}, ${r.amountCents}::text, ${r.quantity}::text, ${r.freeQuantity}::text
        from ${r}
        where ${r.subscriptionId} = ${scope.subscriptionId} and ${r.month} = ${month}::date
          ${scope.clusterId ? sql`and ${r.clusterId} = ${scope.clusterId}` : sql``}`,
      );
      return result.rows.map((row) => ({ clusterId: row.cluster_id, ...sums(row) }));
    },

    /**
     * The free units the whole account used per UTC day and dimension, from `fromDay` (inclusive) to `toDay` (exclusive):
     * the monthly allowance is the account's, shared by its subscriptions. Read through the index of charges with free units.
     */
    async accountFreeUsedByDay(accountId: string, fromDay: string, toDay: string, tx: DbOrTx = db) {
      const x = meteringCharges;
      const result = await run<{ day: string; dimension: string; free_quantity: string }>(
        tx,
        sql`
        select to_char(${x.hourStart} at time zone 'UTC', 'YYYY-MM-DD') as day, ${x.dimension}, sum(${x.freeQuantity})::text as free_quantity
        from ${x}
        where ${x.accountId} = ${accountId} and ${x.freeQuantity} > 0
          and ${x.hourStart} >= ${fromDay}::date at time zone 'UTC' and ${x.hourStart} < ${toDay}::date at time zone 'UTC'
        group by 1, 2`,
      );
      return result.rows.map((row) => ({
        day: row.day,
        dimension: row.dimension as MeteringDimension,
        freeQuantity: Number(row.free_quantity),
      }));
    },

    /** Charged cents per month (its first day) from `fromMonth` to `toMonth` (exclusive); months without charges are absent. */
    async monthlyCents(scope: Scope, fromMonth: string, toMonth: string, tx: DbOrTx = db) {
      const m = meteringMonthlyRollups;
      const d = meteringSubscriptionDailyRollups;
      // Grouped by the month's date, so each month is formatted once rather than each row.
      const query = scope.clusterId
        ? sql`select to_char(${m.month}, 'YYYY-MM-DD') as month, sum(${m.amountCents})::text as cents from ${m}
              where ${m.subscriptionId} = ${scope.subscriptionId} and ${m.clusterId} = ${scope.clusterId}
                and ${m.month} >= ${fromMonth}::date and ${m.month} < ${toMonth}::date group by 1`
        : sql`select to_char(date_trunc('month', ${d.day}), 'YYYY-MM-DD') as month, sum(${d.amountCents})::text as cents
              from ${d}
              where ${d.subscriptionId} = ${scope.subscriptionId} and ${d.day} >= ${fromMonth}::date and ${d.day} < ${toMonth}::date
              group by date_trunc('month', ${d.day})`;
      const result = await run<{ month: string; cents: string }>(tx, query);
      return new Map(result.rows.map((row) => [row.month, Number(row.cents)]));
    },

    /** Charged cents of each of the subscriptions between two days (from inclusive, to exclusive). */
    async subscriptionCents(subscriptionIds: string[], fromDay: string, toDay: string, tx: DbOrTx = db) {
      if (subscriptionIds.length === 0) return new Map<string, number>();
      const d = meteringSubscriptionDailyRollups;
      const result = await run<{ subscription_id: string; cents: string }>(
        tx,
        sql`
        select ${d.subscriptionId}, sum(${d.amountCents})::text as cents from ${d}
        where ${inArray(d.subscriptionId, subscriptionIds)} and ${d.day} >= ${fromDay}::date and ${d.day} < ${toDay}::date
        group by 1`,
      );
      return new Map(result.rows.map((row) => [row.subscription_id, Number(row.cents)]));
    },

    /**
     * A cluster's charges per UTC day from `fromDay` (inclusive) to `toDay` (exclusive), newest first, from the daily
     * rollups every cost screen reads, so a timeline's day shows what the cost tab shows for it.
     */
    async clusterChargeDays(clusterId: string, fromDay: string, toDay: string, tx: DbOrTx = db): Promise<ClusterChargeDay[]> {
      const r = meteringDailyRollups;
      const result = await run<{ day: string; cents: string }>(
        tx,
        sql`
        select to_char(${r.day}, 'YYYY-MM-DD') as day, sum(${r.amountCents})::text as cents from ${r}
        where ${r.clusterId} = ${clusterId} and ${r.day} >= ${fromDay}::date and ${r.day} < ${toDay}::date
        group by ${r.day} order by ${r.day} desc`,
      );
      return result.rows.map((row) => ({ day: row.day, amountCents: Number(row.cents) }));
    },

    /** The account's clusters (deleted ones too), from the clusters module's directory, scoped to the account. */
    async clustersOf(accountId: string, filter: { subscriptionId?: string; clusterId?: string }, tx: DbOrTx = db) {
      const d = clusterDirectory;
      // Plain SQL on the view's Drizzle names (a renamed column still fails to compile): the cost screens read a
      // subscription's hundreds of clusters here, and mapping them through the query builder costs twice the time.
      const result = await run<{
        id: string;
        name: string;
        subscription_id: string;
        status: string;
        status_updated_at: Date | string;
        deleted: boolean;
      }>(
        tx,
        sql`
        select ${d.clusterId} as id, ${d.name}, ${d.subscriptionId}, ${d.status}, ${d.statusUpdatedAt}, ${d.deletedAt} is not null as deleted
        from ${d}
        where ${d.accountId} = ${accountId}
          ${filter.subscriptionId ? sql`and ${d.subscriptionId} = ${filter.subscriptionId}` : sql``}
          ${filter.clusterId ? sql`and ${d.clusterId} = ${filter.clusterId}` : sql``}
        order by ${d.createdAt}, ${d.clusterId}`,
      );
      return result.rows.map((row) => ({
        id: row.id,
        name: row.name,
        subscriptionId: row.subscription_id,
        status: row.status,
        statusUpdatedAt: new Date(row.status_updated_at),
        deleted: row.deleted,
      }));
    },

    /**
     * How many of the account's clusters use something now, per subscription, usage and backup: what the hourly rates
     * are summed from, a few rows for any number of clusters.
     */
    async usageMix(accountId: string, filter: { clusterId?: string }, tx: DbOrTx = db) {
      const query = filter.clusterId
        ? sql`${USAGE_MIX_OF_ACCOUNT}${accountId}${AND_CLUSTER}${filter.clusterId}${USAGE_GROUPS}`
        : sql`${USAGE_MIX_OF_ACCOUNT}${accountId}${USAGE_GROUPS}`;
      const result = await run<UsageMixRow>(tx, query);
      return result.rows.map((row) => ({
        subscriptionId: row.subscription_id,
        usage: row.usage,
        hasBackup: row.has_backup,
        queryEngineCores: row.query_engine_cores,
        count: row.count,
      }));
    },

    /** One of the account's clusters that is not deleted, with its shape and what it uses now; undefined when unknown. */
    async clusterShape(accountId: string, clusterId: string, tx: DbOrTx = db) {
      const d = clusterDirectory;
      const [row] = await tx
        .select({
          subscriptionId: d.subscriptionId,
          hasBackup: d.hasBackup,
          usage: d.usage,
          size: d.size,
          queryEngines: d.queryEngines,
        })
        .from(d)
        .where(and(eq(d.accountId, accountId), eq(d.clusterId, clusterId), sql`${d.deletedAt} is null`))
        .limit(1);
      return row;
    },

    /** Sum of all charges of some subscriptions (the property test's and the checks' ground truth). */
    async chargedCents(subscriptionIds: string[], tx: DbOrTx = db): Promise<number> {
      if (subscriptionIds.length === 0) return 0;
      const x = meteringCharges;
      const result = await run<{ cents: string }>(
        tx,
        sql`select coalesce(sum(${x.amountCents}), 0)::text as cents from ${x} where ${inArray(x.subscriptionId, subscriptionIds)}`,
      );
      return Number(result.rows[0]?.cents ?? 0);
    },

    /** Sets a dated mark (a report logout), replacing an earlier one. */
    async setMark(key: string, accountId: string, now: Date, tx: DbOrTx = db): Promise<void> {
      const n = meteringNotices;
      await tx.execute(
        sql`insert into ${n} (${names(n.key, n.accountId, n.sentAt)}) values (${key}, ${accountId}, ${now})
            on conflict (${names(n.key)}) do update set ${names(n.sentAt)} = excluded.${names(n.sentAt)}`,
      );
    },

    async mark(key: string, tx: DbOrTx = db): Promise<Date | null> {
      const n = meteringNotices;
      const result = await run<{ sent_at: Date | string }>(tx, sql`select ${n.sentAt} from ${n} where ${n.key} = ${key}`);
      return result.rows[0] ? new Date(result.rows[0].sent_at) : null;
    },

    /** Records a notice once; false when it was sent before. */
    async claimNotice(key: string, accountId: string, now: Date, tx: DbOrTx = db): Promise<boolean> {
      const n = meteringNotices;
      const result = await run<{ key: string }>(
        tx,
        sql`insert into ${n} (${names(n.key, n.accountId, n.sentAt)}) values (${key}, ${accountId}, ${now}) on conflict do nothing returning ${names(n.key)}`,
      );
      return result.rows.length > 0;
    },
  };
}
export type MeteringRepository = ReturnType<typeof createMeteringRepository>;

import { sql, type SQL } from 'drizzle-orm';
import type { MeteringDimension } from '@kumo/contract';
import type { DbOrTx } from '../../db/client.js';
import { clusterDirectory } from '../clusters/index.js';
import { meteringCharges } from './metering.schema.js';

/** One charge as the export reads it: quantities in millionths, so sums stay exact integers. */
export interface ExportCharge {
  runId: string;
  clusterId: string;
  clusterName: string;
  dimension: MeteringDimension;
  quantityMicros: number;
  freeMicros: number;
  rateE4: number;
  amountCents: number;
}

/** A charge of the export with its hour, and where the next batch starts after it. */
export type HourCharge = ExportCharge & { hourStart: Date; cursor: ChargeCursor };

/** The last charge read, in the export's order: its hour (to the microsecond, as text), cluster and dimension. */
export interface ChargeCursor {
  hourKey: string;
  clusterId: string;
  dimension: string;
}

async function run<T>(tx: DbOrTx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The month of an hour (UTC), as YYYY-MM. */
const monthOfHour = sql`to_char(${meteringCharges.hourStart} at time zone 'UTC', 'YYYY-MM')`;

/** The reads of metering's own charges behind the consumption export and a statement's usage. */
export function createConsumptionExportRepository(db: DbOrTx) {
  return {
    /**
     * A batch of a subscription's charges whose hour began in [from, to), after `cursor`, in the order a run's free
     * credits are applied to them: hour, cluster, dimension.
     */
    async chargesOfHours(
      subscriptionId: string,
      range: { from: Date; to: Date },
      cursor: ChargeCursor | null,
      limit: number,
      tx: DbOrTx = db,
    ): Promise<HourCharge[]> {
      const x = meteringCharges;
      const d = clusterDirectory;
      const after = cursor
        ? sql`and (${x.hourStart}, ${x.clusterId}, ${x.dimension}) > (${cursor.hourKey}::timestamptz, ${cursor.clusterId}::uuid, ${cursor.dimension})`
        : sql``;
      const rows = await run<{
        run_id: string;
        hour_key: string;
        cluster_id: string;
        cluster_name: string;
        dimension: MeteringDimension;
        quantity_micros: string;
        free_micros: string;
        rate_e4: string;
        amount_cents: string;
      }>(
        tx,
        sql`
        select ${x.runId} as run_id, to_char(${x.hourStart} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as hour_key,
               ${x.clusterId} as cluster_id, coalesce(${d.name}, '') as cluster_name, ${x.dimension} as dimension,
               round(${x.quantity} * 1000000)::text as quantity_micros, round(${x.freeQuantity} * 1000000)::text as free_micros,
               ${x.rateE4}::text as rate_e4, ${x.amountCents}::text as amount_cents
        from ${x} left join ${d} on ${d.clusterId} = ${x.clusterId}
        where ${x.subscriptionId} = ${subscriptionId} and ${x.hourStart} >= ${range.from} and ${x.hourStart} < ${range.to} ${after}
        order by ${x.hourStart}, ${x.clusterId}, ${x.dimension}
        limit ${limit}`,
      );
      return rows.map((row) => ({
        runId: row.run_id,
        hourStart: new Date(row.hour_key),
        cursor: { hourKey: row.hour_key, clusterId: row.cluster_id, dimension: row.dimension },
        clusterId: row.cluster_id,
        clusterName: row.cluster_name,
        dimension: row.dimension,
        quantityMicros: Number(row.quantity_micros),
        freeMicros: Number(row.free_micros),
        rateE4: Number(row.rate_e4),
        amountCents: Number(row.amount_cents),
      }));
    },

    /** What each run charged the subscription for hours that began before `before` (the part of its debit spent there). */
    async runCentsBefore(subscriptionId: string, runIds: string[], before: Date, tx: DbOrTx = db): Promise<Map<string, number>> {
      if (runIds.length === 0) return new Map();
      const x = meteringCharges;
      const rows = await run<{ run_id: string; cents: string }>(
        tx,
        sql`
        select ${x.runId} as run_id, sum(${x.amountCents})::text as cents from ${x}
        where ${x.subscriptionId} = ${subscriptionId} and ${x.hourStart} < ${before} and ${x.runId} = any(${sql.param(runIds)}::uuid[])
        group by 1`,
      );
      return new Map(rows.map((row) => [row.run_id, Number(row.cents)]));
    },

    /**
     * What the runs charged the subscription, per month of the hours (YYYY-MM): how the debits of those runs split by
     * the month of use. Their hours began before `before` (a run charges hours that have begun).
     */
    async runCentsByMonthOfUse(subscriptionId: string, runIds: string[], before: Date, tx: DbOrTx = db): Promise<Map<string, number>> {
      if (runIds.length === 0) return new Map();
      const x = meteringCharges;
      const rows = await run<{ month: string; cents: string }>(
        tx,
        sql`
        select ${monthOfHour} as month, sum(${x.amountCents})::text as cents from ${x}
        where ${x.subscriptionId} = ${subscriptionId} and ${x.hourStart} < ${before} and ${x.runId} = any(${sql.param(runIds)}::uuid[])
        group by 1`,
      );
      return new Map(rows.map((row) => [row.month, Number(row.cents)]));
    },
  };
}
export type ConsumptionExportRepository = ReturnType<typeof createConsumptionExportRepository>;

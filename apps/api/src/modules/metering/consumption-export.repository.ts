import { sql } from 'drizzle-orm';
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

/** The consumption export's one read of metering's own charges: those of the given runs of one subscription. */
export function createConsumptionExportRepository(db: DbOrTx) {
  return {
    /** Every charge of the runs, in the order a run's free credits are applied to them: hour, cluster, dimension. */
    async chargesOfRuns(subscriptionId: string, runIds: string[], tx: DbOrTx = db): Promise<ExportCharge[]> {
      if (runIds.length === 0) return [];
      const x = meteringCharges;
      const d = clusterDirectory;
      const result = (await tx.execute(sql`
        select ${x.runId} as run_id, ${x.clusterId} as cluster_id, coalesce(${d.name}, '') as cluster_name, ${x.dimension} as dimension,
               round(${x.quantity} * 1000000)::text as quantity_micros, round(${x.freeQuantity} * 1000000)::text as free_micros,
               ${x.rateE4}::text as rate_e4, ${x.amountCents}::text as amount_cents
        from ${x} left join ${d} on ${d.clusterId} = ${x.clusterId}
        where ${x.subscriptionId} = ${subscriptionId} and ${x.runId} = any(${sql.param(runIds)}::uuid[])
        order by ${x.hourStart}, ${x.clusterId}, ${x.dimension}`)) as unknown as {
        rows: {
          run_id: string;
          cluster_id: string;
          cluster_name: string;
          dimension: MeteringDimension;
          quantity_micros: string;
          free_micros: string;
          rate_e4: string;
          amount_cents: string;
        }[];
      };
      return result.rows.map((row) => ({
        runId: row.run_id,
        clusterId: row.cluster_id,
        clusterName: row.cluster_name,
        dimension: row.dimension,
        quantityMicros: Number(row.quantity_micros),
        freeMicros: Number(row.free_micros),
        rateE4: Number(row.rate_e4),
        amountCents: Number(row.amount_cents),
      }));
    },
  };
}
export type ConsumptionExportRepository = ReturnType<typeof createConsumptionExportRepository>;

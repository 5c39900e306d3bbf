import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

/** One UTC day's charges of a cluster, in cents. */
export interface ClusterChargeDay {
  day: string;
  amountCents: number;
}

/**
 * A cluster's charges per UTC day from `fromDay` (inclusive) to `toDay` (exclusive), newest first, read from the
 * daily rollups every cost screen reads, so a timeline's day shows what the cost tab shows for it.
 */
export function createClusterChargeDays(db: Database) {
  return async function clusterChargeDays(clusterId: string, fromDay: string, toDay: string): Promise<ClusterChargeDay[]> {
    const result = (await db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as day, sum(amount_cents)::text as cents from metering_daily_rollups
      where cluster_id = ${clusterId} and day >= ${fromDay}::date and day < ${toDay}::date
      group by day order by day desc`)) as unknown as { rows: { day: string; cents: string }[] };
    return result.rows.map((row) => ({ day: row.day, amountCents: Number(row.cents) }));
  };
}
export type ClusterChargeDays = ReturnType<typeof createClusterChargeDays>;

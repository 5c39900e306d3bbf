import type { MeteringDimension } from '@kumo/contract';
import { runOf, type ConsumptionExport } from './consumption-export.js';
import type { ConsumptionExportRepository } from './consumption-export.repository.js';

/** A month's usage as a statement shows it (billing's `StatementUsage`, attached by the wiring). */
export interface StatementUsageValues {
  /** The usage of the hours that began in the month, per cluster and dimension: the consumption export's rows. */
  byClusterAndService: { clusterId: string; clusterName: string; dimension: MeteringDimension; amountCents: number }[];
  /** Of the debits posted in the month (their ledger keys), the cents per month of the hours they paid for (YYYY-MM). */
  postedByMonthOfUse: Map<string, number>;
}

/**
 * A statement's usage: the month's usage by the hour of use, the same rows the consumption export gives, and how
 * the month's usage debits split by the month of use, so the statement can show the debits of earlier months' hours
 * apart and still add up to the ledger's closing balance.
 */
export function createStatementUsage(deps: {
  usageRows: ConsumptionExport;
  repository: Pick<ConsumptionExportRepository, 'runCentsByMonthOfUse'>;
}) {
  return async function statementUsage(
    subscriptionId: string,
    range: { from: Date; to: Date },
    postedKeys: string[],
  ): Promise<StatementUsageValues> {
    const runs = postedKeys.map(runOf).filter((run): run is string => run !== null);
    const [postedByMonthOfUse, byClusterAndService] = await Promise.all([
      deps.repository.runCentsByMonthOfUse(subscriptionId, runs, range.to),
      (async () => {
        const sums = new Map<string, StatementUsageValues['byClusterAndService'][number]>();
        for await (const period of deps.usageRows(subscriptionId, range, 'MONTH')) {
          for (const row of period) {
            const key = `${row.clusterId}|${row.dimension}`;
            const sum = sums.get(key) ?? {
              clusterId: row.clusterId,
              clusterName: row.clusterName,
              dimension: row.dimension,
              amountCents: 0,
            };
            sum.amountCents += row.amountCents;
            sums.set(key, sum);
          }
        }
        return [...sums.values()];
      })(),
    ]);
    return { byClusterAndService, postedByMonthOfUse };
  };
}

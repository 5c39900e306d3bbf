import {
  CONSUMPTION_EXPORT_COLUMNS,
  METERING_DIMENSIONS,
  METERING_DIMENSION_LABELS,
  METERING_UNITS,
  centsToDecimalText,
  type ConsumptionExportRow,
} from '@kumo/contract';
import type { AuditEntry } from '../../lib/audit-page.js';
import { toCsv } from '../../lib/csv.js';
import type { TransactionRecord } from '../billing/index.js';
import type { CostAnalysisValues } from './cost-analysis.js';

const money = (cents: number) => centsToDecimalText(cents);

/** The cost table of a month: date, compute services, storage services, total cost, and a total row. */
export function costTableCsv(analysis: CostAnalysisValues): string {
  return toCsv([
    ['Date', 'Compute services (USD)', 'Storage services (USD)', 'Total cost (USD)'],
    ...analysis.days.map((d) => [d.day, money(d.computeCents), money(d.storageCents), money(d.totalCents)]),
    ['Total', money(analysis.computeCents), money(analysis.storageCents), money(analysis.totalCents)],
  ]);
}

/** The consumption table of a month: quantities per dimension in their units, and the free units used up to each day. */
export function consumptionTableCsv(analysis: CostAnalysisValues): string {
  return toCsv([
    [
      'Date',
      ...METERING_DIMENSIONS.map((d) => `${METERING_DIMENSION_LABELS[d]} (${METERING_UNITS[d]})`),
      'Free build up to (build hours used by the account)',
      'Free cache storage up to (GB-month used by the account)',
    ],
    ...analysis.usage.map((row) => [
      row.day,
      ...METERING_DIMENSIONS.map((d) => row.quantities[d]),
      row.freeBuildUpTo,
      row.freeCacheStorageUpTo,
    ]),
  ]);
}

/** The transaction history as the screen lists it, newest first. */
export function transactionsCsv(transactions: TransactionRecord[]): string {
  return toCsv([
    ['Date', 'Transaction ID', 'Receipt', 'Category', 'Type', 'Description', 'Remark', 'Amount (USD)', 'Status'],
    ...transactions.map((t) => [
      t.at.toISOString(),
      t.id,
      t.receiptId ?? '',
      t.category,
      t.type,
      t.description,
      t.remark,
      money(t.amountCents),
      t.status,
    ]),
  ]);
}

/** A month of a cluster's audit log, newest first. */
export function auditLogsCsv(entries: AuditEntry[]): string {
  return toCsv([
    ['Date', 'Event', 'Description', 'Caused by'],
    ...entries.map((e) => [e.at.toISOString(), e.event, e.description, e.causedBy]),
  ]);
}

/** The consumption export's header line. */
export const consumptionExportHeader = toCsv([[...CONSUMPTION_EXPORT_COLUMNS]]);

/** Consumption export rows as CSV lines; the amount keeps its two decimals, as in every money column. */
export function consumptionExportCsv(rows: ConsumptionExportRow[]): string {
  if (rows.length === 0) return '';
  return toCsv(
    rows.map((row) =>
      CONSUMPTION_EXPORT_COLUMNS.map((column) => (column === 'amount' ? centsToDecimalText(Math.round(row.amount * 100)) : row[column])),
    ),
  );
}

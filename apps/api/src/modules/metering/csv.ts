import {
  METERING_DIMENSIONS,
  METERING_DIMENSION_LABELS,
  METERING_UNITS,
  amountToCents,
  centsToDecimalText,
  type AuditLogEntry,
  type CreditAnalysis,
  type Transaction,
} from '@kumo/contract';

/** One CSV field: quoted when it holds a comma, quote or line break; a leading formula character is neutralised. */
export function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(rows: (string | number)[][]): string {
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

const money = (amount: number) => centsToDecimalText(amountToCents(amount));

/** The cost table of a month: date, compute services, storage services, total cost, and a total row. */
export function costTableCsv(analysis: CreditAnalysis): string {
  return toCsv([
    ['Date', 'Compute services (USD)', 'Storage services (USD)', 'Total cost (USD)'],
    ...analysis.daily.map((d) => [d.date, money(d.compute_total), money(d.storage_total), money(d.daily_total)]),
    ['Total', money(analysis.compute_total), money(analysis.storage_total), money(analysis.total)],
  ]);
}

/** The consumption table of a month: quantities per dimension in their units, and the free units used up to each day. */
export function consumptionTableCsv(analysis: CreditAnalysis): string {
  return toCsv([
    [
      'Date',
      ...METERING_DIMENSIONS.map((d) => `${METERING_DIMENSION_LABELS[d]} (${METERING_UNITS[d]})`),
      'Free build up to (hours)',
      'Free cache storage up to (GB-month)',
    ],
    ...analysis.consumption.map((row) => [
      row.date,
      ...METERING_DIMENSIONS.map((d) => row.usage[d]),
      row.free_build_up_to,
      row.free_cache_storage_up_to,
    ]),
  ]);
}

/** The transaction history as the screen lists it, newest first. */
export function transactionsCsv(transactions: Transaction[]): string {
  return toCsv([
    ['Date', 'Transaction ID', 'Receipt', 'Category', 'Type', 'Description', 'Remark', 'Amount (USD)', 'Status'],
    ...transactions.map((t) => [
      t.transaction_date,
      t.transaction_id,
      t.receipt_id ?? '',
      t.category,
      t.type,
      t.description,
      t.remark,
      money(t.amount),
      t.transaction_status,
    ]),
  ]);
}

/** A month of a cluster's audit log, newest first. */
export function auditLogsCsv(entries: AuditLogEntry[]): string {
  return toCsv([['Date', 'Event', 'Description', 'Caused by'], ...entries.map((e) => [e.date, e.event, e.description, e.caused_by])]);
}

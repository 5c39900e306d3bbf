/** The account's audit trail as the export writes it: JSON rows and CSV with the same columns. */
import { ACCOUNT_AUDIT_EXPORT_COLUMNS, type AccountAuditExportRow } from '@kumo/contract';
import type { AccountTrailEntry } from './account-reads.js';

export function toAccountTrailWire(entry: AccountTrailEntry): AccountAuditExportRow {
  return {
    date: entry.at.toISOString(),
    source: entry.clusterId ? 'CLUSTER' : 'ACCOUNT',
    cluster_id: entry.clusterId,
    cluster_name: entry.clusterName,
    event: entry.event,
    description: entry.description,
    caused_by: entry.causedBy,
  };
}

/** One CSV field: quoted when needed, a leading formula character neutralised (as every CSV export does). */
function field(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function accountTrailCsv(entries: AccountTrailEntry[]): string {
  const rows = entries.map(toAccountTrailWire).map((row) => ACCOUNT_AUDIT_EXPORT_COLUMNS.map((column) => field(row[column])).join(','));
  return [ACCOUNT_AUDIT_EXPORT_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}

/** The account's audit trail as the export writes it: JSON rows and CSV with the same columns. */
import { ACCOUNT_AUDIT_EXPORT_COLUMNS, type AccountAuditExportRow } from '@kumo/contract';
import { toCsv } from '../../lib/csv.js';
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

export function accountTrailCsv(entries: AccountTrailEntry[]): string {
  const rows = entries.map(toAccountTrailWire).map((row) => ACCOUNT_AUDIT_EXPORT_COLUMNS.map((column) => row[column]));
  return toCsv([[...ACCOUNT_AUDIT_EXPORT_COLUMNS], ...rows]);
}

/** The cluster SQL module's values in the wire's shapes. */
import type { ClusterQueriesResponse } from '@kumo/contract';
import type { QueryPage } from './cluster-sql.service.js';

export function toQueryPageWire(page: QueryPage): ClusterQueriesResponse {
  return {
    content: page.rows.map((row) => ({
      query_id: row.id,
      started_at: row.startedAt.toISOString(),
      duration_ms: row.durationMs,
      row_count: row.rowCount,
      status: row.status,
      source: row.source,
      user: row.userLabel,
      client_address: row.clientAddress,
      user_agent: row.userAgent,
      query: row.query,
      error: row.error,
    })),
    totalPages: page.totalPages,
  };
}

/** A cluster's auto-stop on the wire: dollars as the other money fields are, ISO dates and the contract's field names. */
import { centsToAmount, type AutoStopResponse } from '@kumo/contract';
import type { AutoStopValues } from './cluster-auto-stop.service.js';

export function toAutoStopWire(values: AutoStopValues): AutoStopResponse {
  return {
    deployment_id: values.clusterId,
    idle_minutes: values.idleMinutes,
    restart_when_funded: values.restartWhenFunded,
    last_activity_at: values.lastActivityAt?.toISOString() ?? null,
    stops_at: values.stopsAt?.toISOString() ?? null,
    wake_sources: values.wakeSources.map((row) => ({
      source: row.source,
      client_address: row.clientAddress,
      user: row.userLabel,
      user_agent: row.userAgent,
      queries: row.queries,
      last_at: row.lastAt.toISOString(),
    })),
    saved_this_month: centsToAmount(values.savedThisMonthCents),
  };
}

/** A cluster's history: the audit log month by month and the timeline of events and charges day by day. */
import type { AuditEvent, AuditLogResponse, TimelineResponse } from '@kumo/contract';
import { monthOf, type Clock } from '../../clock.js';
import type { ClusterChargeDays } from '../metering/index.js';
import type { Caller, ClusterRecords } from './cluster-records.js';
import type { ClustersRepository } from './clusters.repository.js';
import { buildTimeline, timelineWindow } from './timeline.js';

export function createClusterHistory(deps: {
  repository: ClustersRepository;
  records: Pick<ClusterRecords, 'requireCluster'>;
  clock: Clock;
  /** Each UTC day's charges of a cluster (metering's daily rollups), for its timeline. */
  chargeDays: ClusterChargeDays;
}) {
  const { repository: repo, clock } = deps;
  const { requireCluster } = deps.records;

  return {
    async auditLogs(caller: Caller, id: string, page: number, size: number, startDate?: string): Promise<AuditLogResponse> {
      const view = await requireCluster(caller, id, { includeDeleted: true });
      const { from, to } = monthOf(startDate, clock.now());
      const { rows, total } = await repo.auditPage(view.cluster.id, from, to, page, size);
      return {
        page_content: {
          content: rows.map((row) => ({
            audit_id: row.id,
            date: row.createdAt.toISOString(),
            event: row.event as AuditEvent,
            description: row.description,
            caused_by: row.actorLabel,
          })),
          totalPages: Math.ceil(total / size),
        },
        start_date: from.toISOString(),
        end_date: to.toISOString(),
      };
    },

    /** A page of the cluster's timeline: up to TIMELINE_DAYS_PER_PAGE days ending before `before` (or with today). */
    async timeline(caller: Caller, id: string, before?: string): Promise<TimelineResponse> {
      const { cluster } = await requireCluster(caller, id, { includeDeleted: true });
      const { from, to, nextBefore } = timelineWindow(cluster.createdAt, clock.now(), before);
      const day = (at: Date) => at.toISOString().slice(0, 10);
      const [rows, charges] = await Promise.all([
        repo.timelineEvents(cluster.id, from, to),
        deps.chargeDays(cluster.id, day(from), day(to)),
      ]);
      const events = rows.map((row) => ({
        at: row.createdAt,
        event: row.event as AuditEvent,
        description: row.description,
        causedBy: row.actorLabel,
      }));
      return {
        deployment_id: cluster.id,
        days: buildTimeline({ events, charges, deploying: cluster.status === 'DEPLOYING', from, to }),
        next_before: nextBefore,
      };
    },
  };
}

/** A cluster's history: the audit log month by month, and its events for a page of the timeline day by day. */
import type { AuditEvent } from '@kumo/contract';
import { monthOf, type Clock } from '../../clock.js';
import { auditPageOf, type AuditPage } from '../../lib/audit-page.js';
import type { Caller, ClusterRecords } from './cluster-records.js';
import type { ClustersRepository } from './clusters.repository.js';
import { timelineWindow, type TimelineEvent } from './timeline.js';

export type { TimelineEvent } from './timeline.js';

/** The clusters' part of a timeline page: the UTC days [from, to) it covers and the cluster's events for them. */
export interface TimelinePage {
  clusterId: string;
  /** The deployment is under way: its next step shows as in progress. */
  deploying: boolean;
  from: Date;
  to: Date;
  /** Where the older page ends; null when this one reaches the cluster's creation. */
  nextBefore: string | null;
  /** In written order: those of the page's days and every deployment event, so the steps are read whole. */
  events: TimelineEvent[];
}

export function createClusterHistory(deps: {
  repository: ClustersRepository;
  records: Pick<ClusterRecords, 'requireCluster'>;
  clock: Clock;
}) {
  const { repository, clock } = deps;
  const { requireCluster } = deps.records;

  return {
    /** Every cluster event of the account in [from, to), newest first, at most `limit`: the account's audit export. */
    async accountClusterEvents(accountId: string, month: { from: Date; to: Date }, limit: number) {
      const rows = await repository.accountAuditRows(accountId, month.from, month.to, limit);
      return rows.map((row) => ({
        id: String(row.id),
        at: row.createdAt,
        event: row.event,
        description: row.description,
        causedBy: row.actorLabel,
        clusterId: row.clusterId,
        clusterName: row.clusterName,
      }));
    },

    async auditLogs(caller: Caller, id: string, page: number, size: number, startDate?: string): Promise<AuditPage<AuditEvent>> {
      const view = await requireCluster(caller, id, { includeDeleted: true });
      const month = monthOf(startDate, clock.now());
      const { rows, total } = await repository.auditPage(view.cluster.id, month.from, month.to, page, size);
      return auditPageOf(rows, total, size, month);
    },

    /**
     * The events of a page of the cluster's timeline: up to TIMELINE_DAYS_PER_PAGE days ending before `before` (or
     * with today). The page's charges are metering's, put beside these by whoever shows the timeline.
     */
    async timelinePage(caller: Caller, id: string, before?: string): Promise<TimelinePage> {
      const { cluster } = await requireCluster(caller, id, { includeDeleted: true });
      const { from, to, nextBefore } = timelineWindow(cluster.createdAt, clock.now(), before);
      const rows = await repository.timelineEvents(cluster.id, from, to);
      const events = rows.map((row) => ({
        at: row.createdAt,
        event: row.event as AuditEvent,
        description: row.description,
        causedBy: row.actorLabel,
      }));
      return { clusterId: cluster.id, deploying: cluster.status === 'DEPLOYING', from, to, nextBefore, events };
    },
  };
}

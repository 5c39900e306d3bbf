/**
 * A cluster's timeline, put together above the two modules it shows: the clusters module finds the cluster for the
 * caller and gives the page's days and events, metering gives each of those days' charges (its daily rollups, as
 * the cost tab reads them). Neither module knows of the other for it.
 */
import type { TimelineResponse } from '@kumo/contract';
import type { Caller, ClustersService } from '../clusters/index.js';
import type { MeteringService } from '../metering/index.js';
import { buildTimeline } from './build-timeline.js';

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

export function createClusterTimeline(deps: {
  clusters: Pick<ClustersService, 'timelinePage'>;
  metering: Pick<MeteringService, 'clusterChargeDays'>;
}) {
  /** A page of the timeline: up to TIMELINE_DAYS_PER_PAGE days ending before `before` (or with today), newest first. */
  return async function timeline(caller: Caller, clusterId: string, before?: string): Promise<TimelineResponse> {
    // Charges are read only once the cluster is known to be the caller's.
    const page = await deps.clusters.timelinePage(caller, clusterId, before);
    const charges = await deps.metering.clusterChargeDays(page.clusterId, dayOf(page.from), dayOf(page.to));
    return {
      deployment_id: page.clusterId,
      days: buildTimeline({ events: page.events, charges, deploying: page.deploying, from: page.from, to: page.to }),
      next_before: page.nextBefore,
    };
  };
}
export type ClusterTimeline = ReturnType<typeof createClusterTimeline>;

/**
 * Counting storage API requests: before an account is charged, the cloud is asked how many requests each of its
 * clusters made to persistent storage in every billable hour that has ended since the last count. The charging
 * statement then charges the hours with any, and the same transaction moves the clusters' marks, so an hour is
 * counted again only if its charge rolled back. The cloud is asked outside any transaction.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { TimeWindow } from '../../adapters/cloud/index.js';
import type { CountedRequests } from './charging-sql.js';
import type { MeteringRepository } from './metering.repository.js';

/** Asks the cloud for a cluster's storage requests in each window (in order); absent when the cloud cannot count them. */
export type StorageRequestCounter = (clusterId: string, windows: readonly TimeWindow[]) => Promise<number[]>;

/** Hours asked for per cluster and run: a run that fell far behind catches up over the next runs. */
export const MAX_COUNTED_HOURS_PER_RUN = 1_000;

type RequestMark = Awaited<ReturnType<MeteringRepository['requestMarks']>>[number];

export interface RequestCount {
  requests: CountedRequests[];
  /** Each counted cluster's new mark: the end of the last hour counted. */
  counted: { clusterId: string; until: Date }[];
}

/** Clusters asked at once: the cloud answers each in its own call, and one slow cluster must not hold up the others. */
export const COUNTING_CONCURRENCY = 8;

export function createRequestCounting(deps: {
  repository: Pick<MeteringRepository, 'requestMarks'>;
  count?: StorageRequestCounter;
  logger?: FastifyBaseLogger;
}) {
  /** One cluster's ended, uncounted hours, counted by the cloud into `result`; a cluster the cloud fails is left for the next run. */
  async function countCluster(mark: RequestMark, now: Date, count: StorageRequestCounter, result: RequestCount): Promise<void> {
    const origin = mark.originAt.getTime();
    const first = Math.ceil((mark.countedUntil.getTime() - origin) / mark.hourMs);
    const ended = Math.min(Math.floor((now.getTime() - origin) / mark.hourMs), first + MAX_COUNTED_HOURS_PER_RUN);
    if (ended <= first) return;
    const windows: TimeWindow[] = [];
    for (let n = first; n < ended; n++)
      windows.push({ from: new Date(origin + n * mark.hourMs), to: new Date(origin + (n + 1) * mark.hourMs) });
    try {
      const counts = await count(mark.clusterId, windows);
      windows.forEach((window, i) => {
        const requests = Math.max(0, Math.round(counts[i] ?? 0));
        if (requests > 0) result.requests.push({ clusterId: mark.clusterId, hourStart: window.from, requests });
      });
      result.counted.push({ clusterId: mark.clusterId, until: windows[windows.length - 1]!.to });
    } catch (error) {
      deps.logger?.warn({ err: error, clusterId: mark.clusterId }, 'storage requests not counted');
    }
  }

  /** The account's ended, uncounted hours per cluster, counted by the cloud, a few clusters at a time. */
  return async function countRequests(accountId: string, now: Date): Promise<RequestCount> {
    const result: RequestCount = { requests: [], counted: [] };
    const count = deps.count;
    if (!count) return result;
    const marks = await deps.repository.requestMarks(accountId);
    let next = 0;
    const worker = async () => {
      while (next < marks.length) await countCluster(marks[next++]!, now, count, result);
    };
    await Promise.all(Array.from({ length: Math.min(COUNTING_CONCURRENCY, marks.length) }, worker));
    return result;
  };
}

/**
 * Idle auto-stop: an online cluster with no activity for its idle minutes is stopped as a person's stop would (data
 * kept, storage still charged), with why in its audit log and timeline and a notice in the owner's bell. Minutes are
 * the simulated cloud's, which pass SIM_TIME_SCALE times faster (a billable hour's sixtieth); a cluster's idle time
 * counts from its newest query or from when it last came online, whichever is later, so a cluster just started is
 * not idle.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Tx } from '../../db/client.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { ClustersService, LockedCluster } from '../clusters/index.js';
import type { NoticesService } from '../notices/index.js';
import type { Activity, AutoStopRepository } from './cluster-auto-stop.repository.js';

export const AUTO_STOP_JOBS = { sweep: 'cluster-auto-stop.sweep', check: 'cluster-auto-stop.check' } as const;

/** The minute sweep looks this far ahead and queues a check for the moment each cluster is due. */
const LOOK_AHEAD_MS = 60_000;

/** When an online cluster stops if nothing happens: idle minutes after its newest activity or its coming online. */
export function stopsAt(onlineSince: Date, lastQueryAt: Date | null, idleMinutes: number, minuteMs: number): Date {
  const from = Math.max(onlineSince.getTime(), lastQueryAt?.getTime() ?? 0);
  return new Date(from + idleMinutes * minuteMs);
}

const hhmm = (at: Date, now: Date) => {
  const day = at.toISOString().slice(0, 10);
  const time = `${at.toISOString().slice(11, 16)} UTC`;
  return day === now.toISOString().slice(0, 10) ? time : `${day} ${time}`;
};

/** Who sent a query, as a short phrase: the address and client, or the person in the console. */
function whoQueried(activity: Activity): string {
  const client = activity.userAgent ? ` (${activity.userAgent.slice(0, 60)})` : '';
  if (activity.clientAddress) return `from ${activity.clientAddress}${client}`;
  return `by ${activity.userLabel}${client}`;
}

/** "Stopped after 60 idle minutes; last query 14:02 UTC from 203.0.113.7 (DBeaver)", or "no query since it started". */
export function idleStopDescription(idleMinutes: number, last: Activity | undefined, onlineSince: Date, now: Date): string {
  const head = `Stopped after ${idleMinutes} idle minutes`;
  if (!last || last.startedAt.getTime() < onlineSince.getTime()) return `${head}; no query since it started.`;
  return `${head}; last query ${hhmm(last.startedAt, now)} ${whoQueried(last)}.`;
}

export function createIdleStopper(deps: {
  repository: AutoStopRepository;
  clusters: Pick<ClustersService, 'stopBySystem'>;
  notices: Pick<NoticesService, 'write'>;
  jobs: JobQueue;
  clock: Clock;
  logger?: FastifyBaseLogger;
  /** Real milliseconds one of the cloud's minutes lasts. */
  minuteMs: number;
  /**
   * Whether the history holds every query that reached the cluster before a moment: on AWS the endpoint's queries
   * arrive with the minute read of its activity, and a cluster whose endpoint could not be read is not called idle.
   */
  activityKnownUntil?: (clusterId: string, at: Date, tx: Tx) => Promise<boolean>;
}) {
  const { repository, clusters, notices, jobs, clock, minuteMs } = deps;

  /** Under the cluster's lock: stop it when it is still idle, recording why and telling the owner, in one transaction. */
  async function decide(cluster: LockedCluster, tx: Tx): Promise<string | undefined> {
    if (cluster.status !== 'ONLINE') return undefined;
    const settings = await repository.settings(cluster.id, tx);
    if (settings?.idleMinutes == null) return undefined;
    const last = await repository.lastActivity(cluster.id, tx);
    const now = clock.now();
    const due = stopsAt(cluster.statusUpdatedAt, last?.startedAt ?? null, settings.idleMinutes, minuteMs);
    if (due.getTime() > now.getTime()) return undefined;
    if (deps.activityKnownUntil && !(await deps.activityKnownUntil(cluster.id, due, tx))) return undefined;
    const description = idleStopDescription(settings.idleMinutes, last, cluster.statusUpdatedAt, now);
    const stopId = await repository.recordStop(
      { clusterId: cluster.id, accountId: cluster.accountId, cause: 'IDLE', reason: description, stoppedAt: now },
      tx,
    );
    await notices.write(
      {
        accountId: cluster.accountId,
        kind: 'CLUSTER_AUTO_STOPPED',
        title: `${cluster.name} was stopped after ${settings.idleMinutes} idle minutes`,
        body: `${description} Its data is kept and its storage is still charged. Start it again from the cluster's page.`,
        link: `/clusters/${cluster.subscriptionId}/${cluster.id}`,
        key: `auto-stop:${stopId}`,
      },
      tx,
    );
    return description;
  }

  /** Stops the cluster if it is idle now; safe to call from several processes at once (one stop, one notice). */
  async function check(accountId: string, clusterId: string): Promise<boolean> {
    return clusters.stopBySystem(accountId, clusterId, decide);
  }

  /** Queues a check for the moment the cluster falls due, when that is within the next minute (the sweep sees the rest). */
  async function checkWhenDue(accountId: string, clusterId: string, due: number): Promise<void> {
    const wait = due - clock.now().getTime();
    if (wait >= LOOK_AHEAD_MS) return;
    await jobs.send(AUTO_STOP_JOBS.check, { accountId, clusterId }, { startAfterSeconds: Math.max(0, Math.ceil(wait / 1000)) });
  }

  return {
    check,
    checkWhenDue,

    /**
     * Every minute: the idle clusters are stopped, and a check is queued for the moment each of the others falls due
     * within the next minute, so a short idle time in the fast simulated cloud is kept to the second.
     */
    async sweep(): Promise<number> {
      let stopped = 0;
      const now = clock.now().getTime();
      for (const candidate of await repository.idleCandidates()) {
        const due = stopsAt(candidate.onlineSince, candidate.lastQueryAt, candidate.idleMinutes, minuteMs).getTime();
        try {
          if (due <= now) {
            if (await check(candidate.accountId, candidate.clusterId)) stopped += 1;
          } else {
            await checkWhenDue(candidate.accountId, candidate.clusterId, due);
          }
        } catch (error) {
          deps.logger?.warn({ err: error, clusterId: candidate.clusterId }, 'idle auto-stop failed for one cluster');
        }
      }
      return stopped;
    },
  };
}
export type IdleStopper = ReturnType<typeof createIdleStopper>;

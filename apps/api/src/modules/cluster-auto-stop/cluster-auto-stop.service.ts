/**
 * Idle auto-stop and restart when funded, per cluster (docs/clusters.md). Neither clusters nor metering imports this
 * module: services.ts attaches it to the clusters' audit entries (a new cluster's default, a start or deletion ending
 * the system's stop) and to the stops the overdue guard and the budgets' hard cap make. Answers in minutes, cents and
 * Dates; presentation.ts writes the wire.
 */
import { AUTO_STOP_LIMITS, CLUSTER_MESSAGES } from '@kumo/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { DbOrTx, Tx } from '../../db/client.js';
import { notFound } from '../../errors.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { AuditedEntry, ClustersService } from '../clusters/index.js';
import { clusterHourCents, type MeteringService } from '../metering/index.js';
import type { NoticesService } from '../notices/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import type { AutoStopRepository, AutoStopSettings, DirectoryCluster, WakeSourceRow } from './cluster-auto-stop.repository.js';
import { createIdleStopper, stopsAt } from './idle-stopper.js';
import { createRestartWhenFunded } from './restart-when-funded.js';

/** A cluster's auto-stop as the cluster page shows it. */
export interface AutoStopValues {
  clusterId: string;
  idleMinutes: number | null;
  restartWhenFunded: boolean;
  lastActivityAt: Date | null;
  stopsAt: Date | null;
  wakeSources: WakeSourceRow[];
  savedThisMonthCents: number;
}

const OFF: AutoStopSettings = { idleMinutes: null, restartWhenFunded: false };
const WAKE_SOURCE_ROWS = 50;
const HOUR_MS = 3_600_000;

const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

export function createAutoStopService(deps: {
  repository: AutoStopRepository;
  clusters: Pick<ClustersService, 'stopBySystem' | 'startBySystem'>;
  subscriptions: Pick<SubscriptionsService, 'requireOwned'>;
  /** The account's rates now, and how long one billable hour lasts (an hour with AWS, shorter in the simulated cloud). */
  metering: Pick<MeteringService, 'ratesAt' | 'hourMs'>;
  notices: Pick<NoticesService, 'write'>;
  jobs: JobQueue;
  clock: Clock;
  logger?: FastifyBaseLogger;
  /** A new cluster's idle minutes (AUTO_STOP_DEFAULT_MINUTES), null for off. */
  defaultIdleMinutes: number | null;
  /** Whether the history holds every query that reached a cluster before a moment (the cluster SQL module's word). */
  activityKnownUntil?: (clusterId: string, at: Date, tx: Tx) => Promise<boolean>;
}) {
  const { repository, metering, clock } = deps;
  // The cloud's minute: a sixtieth of its billable hour, so idle minutes pass SIM_TIME_SCALE times faster in the simulator.
  const minuteMs = metering.hourMs / 60;
  const idle = createIdleStopper({ ...deps, minuteMs });
  const restarts = createRestartWhenFunded(deps);

  async function requireCluster(accountId: string, clusterId: string): Promise<DirectoryCluster> {
    const cluster = await repository.cluster(accountId, clusterId);
    if (!cluster) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.clusterNotFound);
    return cluster;
  }

  /** The hours auto-stop kept the cluster stopped this month, priced at what running would have cost beyond storage. */
  async function savedThisMonth(cluster: DirectoryCluster, now: Date): Promise<number> {
    const from = monthStart(now).getTime();
    let stoppedMs = 0;
    for (const stop of await repository.stopsSince(cluster.id, 'IDLE', new Date(from))) {
      const start = Math.max(stop.stoppedAt.getTime(), from);
      const end = Math.min(stop.endedAt?.getTime() ?? now.getTime(), now.getTime());
      stoppedMs += Math.max(0, end - start);
    }
    if (stoppedMs === 0) return 0;
    const rates = await metering.ratesAt(cluster.accountId, now);
    const perHour = clusterHourCents(rates, 'running', cluster.hasBackup) - clusterHourCents(rates, 'stopped', cluster.hasBackup);
    return Math.round((stoppedMs / metering.hourMs) * perHour);
  }

  async function valuesOf(cluster: DirectoryCluster): Promise<AutoStopValues> {
    const now = clock.now();
    const settings = (await repository.settings(cluster.id)) ?? OFF;
    const [last, wakeSources, saved] = await Promise.all([
      repository.lastActivity(cluster.id),
      repository.wakeSources(cluster.id, new Date(now.getTime() - AUTO_STOP_LIMITS.wakeSourceHours * HOUR_MS), WAKE_SOURCE_ROWS),
      savedThisMonth(cluster, now),
    ]);
    const online = cluster.status === 'ONLINE' && settings.idleMinutes !== null;
    return {
      clusterId: cluster.id,
      idleMinutes: settings.idleMinutes,
      restartWhenFunded: settings.restartWhenFunded,
      lastActivityAt: last?.startedAt ?? null,
      stopsAt: online ? stopsAt(cluster.statusUpdatedAt, last?.startedAt ?? null, settings.idleMinutes!, minuteMs) : null,
      wakeSources,
      savedThisMonthCents: saved,
    };
  }

  return {
    async get(accountId: string, clusterId: string): Promise<AutoStopValues> {
      return valuesOf(await requireCluster(accountId, clusterId));
    },

    /** Saves the settings; an online cluster due within the minute (or already past its new time) gets a check then. */
    async put(accountId: string, clusterId: string, change: { idleMinutes: number | null; restartWhenFunded?: boolean }) {
      const cluster = await requireCluster(accountId, clusterId);
      const current = (await repository.settings(clusterId)) ?? OFF;
      const settings = { idleMinutes: change.idleMinutes, restartWhenFunded: change.restartWhenFunded ?? current.restartWhenFunded };
      await repository.save(clusterId, accountId, settings, clock.now());
      const values = await valuesOf(cluster);
      if (values.stopsAt) await idle.checkWhenDue(accountId, clusterId, values.stopsAt.getTime());
      return values;
    },

    /**
     * Told of each cluster audit entry, in its transaction: a new cluster gets auto-stop at the default minutes, and a
     * start or deletion request ends the system's open stop (a person's start means the system restarts nothing).
     */
    async clusterAudited(entry: AuditedEntry, tx?: DbOrTx): Promise<void> {
      if (entry.event === 'CLUSTER_CREATE_REQUESTED') {
        const settings = { idleMinutes: deps.defaultIdleMinutes, restartWhenFunded: false };
        await repository.saveDefault(entry.clusterId, entry.accountId, settings, entry.at, tx);
      } else if (entry.event === 'CLUSTER_START_REQUESTED' || entry.event === 'CLUSTER_DELETE_REQUESTED') {
        await repository.endOpen(entry.clusterId, entry.at, tx);
      }
    },

    /** Stops idle clusters now (the check job of one cluster, and the test's way in). */
    checkIdle: idle.check,
    sweepIdle: idle.sweep,
    sweepRestarts: restarts.sweep,

    /** The minute job: idle clusters are stopped, then funded ones started again. */
    async sweep(): Promise<void> {
      await idle.sweep();
      await restarts.sweep();
    },
  };
}
export type AutoStopService = ReturnType<typeof createAutoStopService>;

/** SQL for auto-stop: its settings and the system's stops; clusters and their activity through the views they publish. */
import { and, count, desc, eq, gt, gte, inArray, isNotNull, isNull, max, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { clusterQueryActivity } from '../cluster-sql/index.js';
import { clusterDirectory } from '../clusters/index.js';
import { clusterAutoStopSettings, clusterSystemStops, type SystemStopCause } from './cluster-auto-stop.schema.js';

export interface AutoStopSettings {
  idleMinutes: number | null;
  restartWhenFunded: boolean;
}

/** A cluster as the clusters module publishes it, for the rules here. */
export interface DirectoryCluster {
  id: string;
  accountId: string;
  subscriptionId: string;
  name: string;
  status: string;
  statusUpdatedAt: Date;
  hasBackup: boolean;
}

/** The newest query that counts as activity. */
export interface Activity {
  startedAt: Date;
  source: 'CONSOLE' | 'ENDPOINT';
  userLabel: string;
  clientAddress: string | null;
  userAgent: string | null;
}

export interface WakeSourceRow {
  source: 'CONSOLE' | 'ENDPOINT';
  clientAddress: string | null;
  userLabel: string;
  userAgent: string | null;
  queries: number;
  lastAt: Date;
}

/** An online cluster with auto-stop on, and when it was last active (NULL: never queried). */
export interface IdleCandidate {
  clusterId: string;
  accountId: string;
  idleMinutes: number;
  onlineSince: Date;
  lastQueryAt: Date | null;
}

/** An open stop the overdue guard or a hard cap made, of a cluster whose owner asked for restart when funded. */
export interface RestartCandidate {
  stopId: string;
  clusterId: string;
  accountId: string;
  cause: SystemStopCause;
}

const directoryColumns = {
  id: clusterDirectory.clusterId,
  accountId: clusterDirectory.accountId,
  subscriptionId: clusterDirectory.subscriptionId,
  name: clusterDirectory.name,
  status: clusterDirectory.status,
  statusUpdatedAt: clusterDirectory.statusUpdatedAt,
  hasBackup: clusterDirectory.hasBackup,
};

export function createAutoStopRepository(db: DbOrTx) {
  /** The cluster was asked to start or be deleted: the system's open stop of it, if any, is over. */
  async function endOpen(clusterId: string, at: Date, tx: DbOrTx = db): Promise<void> {
    await tx
      .update(clusterSystemStops)
      .set({ endedAt: at })
      .where(and(eq(clusterSystemStops.clusterId, clusterId), isNull(clusterSystemStops.endedAt)));
  }

  return {
    endOpen,

    /** The account's cluster, unless it is deleted or another account's. */
    async cluster(accountId: string, clusterId: string, tx: DbOrTx = db): Promise<DirectoryCluster | undefined> {
      const [row] = await tx
        .select(directoryColumns)
        .from(clusterDirectory)
        .where(
          and(eq(clusterDirectory.accountId, accountId), eq(clusterDirectory.clusterId, clusterId), isNull(clusterDirectory.deletedAt)),
        )
        .limit(1);
      return row;
    },

    async settings(clusterId: string, tx: DbOrTx = db): Promise<AutoStopSettings | undefined> {
      const [row] = await tx
        .select({ idleMinutes: clusterAutoStopSettings.idleMinutes, restartWhenFunded: clusterAutoStopSettings.restartWhenFunded })
        .from(clusterAutoStopSettings)
        .where(eq(clusterAutoStopSettings.clusterId, clusterId))
        .limit(1);
      return row;
    },

    async save(clusterId: string, accountId: string, settings: AutoStopSettings, now: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(clusterAutoStopSettings)
        .values({ clusterId, accountId, ...settings, updatedAt: now })
        .onConflictDoUpdate({ target: clusterAutoStopSettings.clusterId, set: { ...settings, updatedAt: now } });
    },

    /** A new cluster's settings; a row already there (saved by its creator) is kept. */
    async saveDefault(clusterId: string, accountId: string, settings: AutoStopSettings, now: Date, tx: DbOrTx = db): Promise<void> {
      await tx
        .insert(clusterAutoStopSettings)
        .values({ clusterId, accountId, ...settings, updatedAt: now })
        .onConflictDoNothing();
    },

    async lastActivity(clusterId: string, tx: DbOrTx = db): Promise<Activity | undefined> {
      const [row] = await tx
        .select({
          startedAt: clusterQueryActivity.startedAt,
          source: clusterQueryActivity.source,
          userLabel: clusterQueryActivity.userLabel,
          clientAddress: clusterQueryActivity.clientAddress,
          userAgent: clusterQueryActivity.userAgent,
        })
        .from(clusterQueryActivity)
        .where(eq(clusterQueryActivity.clusterId, clusterId))
        .orderBy(desc(clusterQueryActivity.startedAt))
        .limit(1);
      return row;
    },

    /** The cluster's activity since `since`, grouped by source, address, user and client, most recent first. */
    async wakeSources(clusterId: string, since: Date, limit: number, tx: DbOrTx = db): Promise<WakeSourceRow[]> {
      const lastAt = max(clusterQueryActivity.startedAt);
      const rows = await tx
        .select({
          source: clusterQueryActivity.source,
          clientAddress: clusterQueryActivity.clientAddress,
          userLabel: clusterQueryActivity.userLabel,
          userAgent: clusterQueryActivity.userAgent,
          queries: count(),
          lastAt,
        })
        .from(clusterQueryActivity)
        .where(and(eq(clusterQueryActivity.clusterId, clusterId), gte(clusterQueryActivity.startedAt, since)))
        .groupBy(
          clusterQueryActivity.source,
          clusterQueryActivity.clientAddress,
          clusterQueryActivity.userLabel,
          clusterQueryActivity.userAgent,
        )
        .orderBy(desc(lastAt))
        .limit(limit);
      return rows.map((row) => ({ ...row, lastAt: row.lastAt! }));
    },

    /** Every online cluster with auto-stop on, with its newest activity. */
    async idleCandidates(tx: DbOrTx = db): Promise<IdleCandidate[]> {
      const rows = await tx
        .select({
          clusterId: clusterAutoStopSettings.clusterId,
          accountId: clusterAutoStopSettings.accountId,
          idleMinutes: clusterAutoStopSettings.idleMinutes,
          onlineSince: clusterDirectory.statusUpdatedAt,
          lastQueryAt: sql<Date | null>`(select max(${clusterQueryActivity.startedAt}) from ${clusterQueryActivity}
            where ${clusterQueryActivity.clusterId} = ${clusterAutoStopSettings.clusterId})`.mapWith(clusterQueryActivity.startedAt),
        })
        .from(clusterAutoStopSettings)
        .innerJoin(clusterDirectory, eq(clusterDirectory.clusterId, clusterAutoStopSettings.clusterId))
        .where(
          and(isNotNull(clusterAutoStopSettings.idleMinutes), eq(clusterDirectory.status, 'ONLINE'), isNull(clusterDirectory.deletedAt)),
        );
      return rows.map((row) => ({ ...row, idleMinutes: row.idleMinutes! }));
    },

    /** Records a stop the system made; a stop left open (there should be none) is ended first. */
    async recordStop(
      stop: { clusterId: string; accountId: string; cause: SystemStopCause; reason: string; stoppedAt: Date },
      tx: DbOrTx,
    ): Promise<string> {
      await endOpen(stop.clusterId, stop.stoppedAt, tx);
      const [row] = await tx.insert(clusterSystemStops).values(stop).returning({ id: clusterSystemStops.id });
      return row!.id;
    },

    /** Ends the stop as restarted, once: false when another process already did (or the cluster was started). */
    async claimRestart(stopId: string, at: Date, tx: DbOrTx): Promise<boolean> {
      const claimed = await tx
        .update(clusterSystemStops)
        .set({ endedAt: at, restartedAt: at })
        .where(and(eq(clusterSystemStops.id, stopId), isNull(clusterSystemStops.endedAt)))
        .returning({ id: clusterSystemStops.id });
      return claimed.length === 1;
    },

    async restartCandidates(tx: DbOrTx = db): Promise<RestartCandidate[]> {
      return tx
        .select({
          stopId: clusterSystemStops.id,
          clusterId: clusterSystemStops.clusterId,
          accountId: clusterSystemStops.accountId,
          cause: clusterSystemStops.cause,
        })
        .from(clusterSystemStops)
        .innerJoin(clusterAutoStopSettings, eq(clusterAutoStopSettings.clusterId, clusterSystemStops.clusterId))
        .where(
          and(
            isNull(clusterSystemStops.endedAt),
            inArray(clusterSystemStops.cause, ['OVERDUE', 'BUDGET_CAP']),
            eq(clusterAutoStopSettings.restartWhenFunded, true),
          ),
        );
    },

    /** The cluster's stops for a cause that were still stopped at or after `from`. */
    async stopsSince(clusterId: string, cause: SystemStopCause, from: Date, tx: DbOrTx = db) {
      return tx
        .select({ stoppedAt: clusterSystemStops.stoppedAt, endedAt: clusterSystemStops.endedAt })
        .from(clusterSystemStops)
        .where(
          and(
            eq(clusterSystemStops.clusterId, clusterId),
            eq(clusterSystemStops.cause, cause),
            or(isNull(clusterSystemStops.endedAt), gt(clusterSystemStops.endedAt, from)),
          ),
        );
    },
  };
}
export type AutoStopRepository = ReturnType<typeof createAutoStopRepository>;

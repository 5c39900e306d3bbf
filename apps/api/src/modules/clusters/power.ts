/** Starting and stopping clusters: on a person's request, by the schedule, and by metering's overdue guard. */
import {
  CLUSTER_LIMITS,
  CLUSTER_MESSAGES,
  MESSAGES,
  canClusterDo,
  queryEngineCores,
  type ClusterSize,
  type ClusterStatus,
  type ErrorCode,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { businessRule, conflict } from '../../errors.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { notFoundCluster, type Actor, type Caller, type ClusterRecords, type Follow } from './cluster-records.js';
import type { ClusterRow, ClustersRepository } from './clusters.repository.js';

export type ClusterPower = ReturnType<typeof createClusterPower>;

/** The cluster about to run: whether it keeps backups in a second region (what its running hour costs depends on it). */
export interface StartingCluster {
  dr: boolean;
  /** The query engines' cores it runs (its size × engines). */
  queryEngineCores: number;
  /**
   * What an existing cluster already costs in the subscription's hourly rate (a stopped one its storage, a running one
   * its whole hour at its present shape), so only the difference is asked for; none for a new cluster.
   */
  already?: { state: 'running' | 'stopped'; queryEngineCores: number };
}

/** A cluster of the subscription still being deployed: not yet in its hourly rate, but it runs once deployed. */
export interface DeployingCluster {
  dr: boolean;
  queryEngineCores: number;
}

/**
 * A rule another module adds to running a cluster (a budget's hard cap), attached by the wiring: the refusal, or
 * undefined when the cluster may run. Asked inside the transaction of a start (a person's or the schedule's), a growth
 * or a create, under the subscription's lock; `deploying` are the subscription's clusters about to run.
 */
export type StartGate = (
  accountId: string,
  subscriptionId: string,
  tx: Tx,
  cluster: StartingCluster,
  deploying: DeployingCluster[],
) => Promise<{ code: ErrorCode; message: string } | undefined>;

/** A start or stop under way: the cluster and the status it now has (STARTING or STOPPING). */
export interface PowerChange {
  deploymentId: string;
  status: ClusterStatus;
}

/** What a cluster row runs, and what it costs now, as the start gates ask. */
export function startingCluster(row: ClusterRow): StartingCluster {
  const cores = queryEngineCores(row.size as ClusterSize, row.queryEngines);
  return {
    dr: row.backupRegion !== null,
    queryEngineCores: cores,
    already: { state: row.status === 'ONLINE' ? 'running' : 'stopped', queryEngineCores: cores },
  };
}

export function createClusterPower(deps: {
  db: Database;
  repository: ClustersRepository;
  subscriptions: Pick<SubscriptionsService, 'holdForClusterStart'>;
  records: Pick<ClusterRecords, 'actorOf' | 'audit'>;
  follow: Follow;
  clock: Clock;
}) {
  const { db, repository, subscriptions, follow, clock } = deps;
  const { actorOf, audit } = deps.records;

  /** Starts or stops a cluster on behalf of a person or the schedule; the caller holds the row lock. */
  async function beginPowerChange(row: ClusterRow, action: 'start' | 'stop', actor: Actor, tx: Tx): Promise<ClusterStatus> {
    const status: ClusterStatus = action === 'start' ? 'STARTING' : 'STOPPING';
    await repository.update(row.id, { status, statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
    const by = typeof actor === 'string' ? `the ${actor.toLowerCase()}` : actor.email;
    await audit(
      row.id,
      action === 'start' ? 'CLUSTER_START_REQUESTED' : 'CLUSTER_STOP_REQUESTED',
      `${action === 'start' ? 'Start' : 'Stop'} of ${row.name} requested by ${by}.`,
      actor,
      tx,
    );
    return status;
  }

  const gates: StartGate[] = [];

  /**
   * Why the attached rules refuse to run the cluster in the subscription; undefined when none does. The caller holds
   * the subscription's lock (holdForStart, or a create's), so no other start or create in it is checked meanwhile.
   */
  async function startRefusal(accountId: string, subscriptionId: string, tx: Tx, cluster: StartingCluster) {
    if (gates.length === 0) return undefined;
    const deploying = (await repository.deployingOf(subscriptionId, tx)).map((row) => ({
      dr: row.backupRegion !== null,
      queryEngineCores: queryEngineCores(row.size as ClusterSize, row.queryEngines),
    }));
    for (const gate of gates) {
      const refusal = await gate(accountId, subscriptionId, tx, cluster, deploying);
      if (refusal) return refusal;
    }
    return undefined;
  }

  /**
   * Before a start or a growth is checked: locks the subscription for the rest of the transaction, as a create does,
   * and answers whether its balance allows a start. Every path takes the cluster's row lock first and the
   * subscription's second (as reconcile does when a deletion ends), so none waits on another in a circle.
   */
  async function holdForStart(subscriptionId: string, accountId: string, tx: Tx): Promise<{ balanceAllowsStart: boolean }> {
    const subscription = await subscriptions.holdForClusterStart(accountId, subscriptionId, tx);
    return { balanceAllowsStart: subscription.balanceCents >= CLUSTER_LIMITS.minimumBalanceCents };
  }

  return {
    beginPowerChange,
    holdForStart,
    startRefusal,

    attachStartGate(gate: StartGate): void {
      gates.push(gate);
    },

    async start(caller: Caller, id: string): Promise<PowerChange> {
      const actor = await actorOf(caller);
      const status = await db.transaction(async (tx) => {
        const row = await repository.lockForAccount(caller.accountId, id, tx);
        if (!row) throw notFoundCluster();
        if (!canClusterDo('start', row.status as ClusterStatus)) throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.startNotAllowed);
        if (!(await holdForStart(row.subscriptionId, caller.accountId, tx)).balanceAllowsStart)
          throw businessRule('INSUFFICIENT_BALANCE', MESSAGES.minimumBalance);
        const refusal = await startRefusal(caller.accountId, row.subscriptionId, tx, startingCluster(row));
        if (refusal) throw businessRule(refusal.code, refusal.message);
        return beginPowerChange(row, 'start', actor, tx);
      });
      await follow(id);
      return { deploymentId: id, status };
    },

    async stop(caller: Caller, id: string): Promise<PowerChange> {
      const actor = await actorOf(caller);
      const status = await db.transaction(async (tx) => {
        const row = await repository.lockForAccount(caller.accountId, id, tx);
        if (!row) throw notFoundCluster();
        if (!canClusterDo('stop', row.status as ClusterStatus)) throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.stopNotAllowed);
        return beginPowerChange(row, 'stop', actor, tx);
      });
      await follow(id);
      return { deploymentId: id, status };
    },

    /**
     * Metering's overdue guard: stops the subscription's online clusters (never deletes them), with the reason in the
     * audit log: a balance below the overdue limit, a subscription that is gone, or a budget's hard cap reached.
     * Nothing here restarts them; `onStopped` (the wiring's, for restart when funded) is told of each stop in its
     * transaction. Returns the names of those stopped.
     */
    async stopForOverdue(
      accountId: string,
      subscriptionId: string,
      reason: string,
      onStopped?: (clusterId: string, tx: Tx) => Promise<void>,
    ): Promise<string[]> {
      const stopped: string[] = [];
      for (const live of await repository.liveOfSubscriptions([subscriptionId])) {
        const done = await db.transaction(async (tx) => {
          const row = await repository.lockForAccount(accountId, live.id, tx);
          if (!row || !canClusterDo('stop', row.status as ClusterStatus)) return false;
          await repository.update(row.id, { status: 'STOPPING', statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
          await audit(row.id, 'CLUSTER_STOP_REQUESTED', `${row.name} is being stopped: ${reason}`, 'System', tx);
          await onStopped?.(row.id, tx);
          return true;
        });
        if (done) {
          stopped.push(live.name);
          await follow(live.id);
        }
      }
      return stopped;
    },
  };
}

/**
 * Starting and stopping a cluster for a rule another module keeps (idle auto-stop, restart when funded), attached by
 * the wiring. Each runs in one transaction that holds the cluster's row lock, so two processes acting on one cluster
 * at once stop or start it once: the second finds it no longer in a state it may change.
 */
import { canClusterDo, type ClusterStatus } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import type { ClusterRecords, Follow } from './cluster-records.js';
import type { ClustersRepository } from './clusters.repository.js';
import { startingCluster, type ClusterPower } from './power.js';

/** The cluster a rule acts on, as the rule sees it under the row lock. */
export interface LockedCluster {
  id: string;
  name: string;
  accountId: string;
  subscriptionId: string;
  status: ClusterStatus;
  /** When the cluster entered its status (for an online cluster, when it last came online). */
  statusUpdatedAt: Date;
}

/**
 * Decides, under the lock and in the transaction, whether to act and says why: the audit entry's description, or
 * undefined to leave the cluster as it is. What the rule records of its own is written in the same transaction.
 */
export type SystemDecision = (cluster: LockedCluster, tx: Tx) => Promise<string | undefined>;

/** What came of a system start: started, or why not (the cluster's state, the balance, a start gate's refusal). */
export type SystemStartResult = { started: true } | { started: false; refusal: string };

export function createSystemPower(deps: {
  db: Database;
  repository: ClustersRepository;
  power: Pick<ClusterPower, 'holdForStart' | 'startRefusal'>;
  records: Pick<ClusterRecords, 'audit'>;
  follow: Follow;
  clock: Clock;
}) {
  const { db, repository, power, records, follow, clock } = deps;

  const lockedOf = (row: NonNullable<Awaited<ReturnType<ClustersRepository['findById']>>>): LockedCluster => ({
    id: row.id,
    name: row.name,
    accountId: row.accountId,
    subscriptionId: row.subscriptionId,
    status: row.status as ClusterStatus,
    statusUpdatedAt: row.statusUpdatedAt,
  });

  return {
    /** Stops the cluster as a person's stop would (data kept) when it may stop and the rule still says so. */
    async stopBySystem(accountId: string, clusterId: string, decide: SystemDecision): Promise<boolean> {
      const stopped = await db.transaction(async (tx) => {
        const row = await repository.lockForAccount(accountId, clusterId, tx);
        if (!row || !canClusterDo('stop', row.status as ClusterStatus)) return false;
        const description = await decide(lockedOf(row), tx);
        if (!description) return false;
        await repository.update(row.id, { status: 'STOPPING', statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
        await records.audit(row.id, 'CLUSTER_STOP_REQUESTED', description, 'System', tx);
        return true;
      });
      if (stopped) await follow(clusterId);
      return stopped;
    },

    /**
     * Starts a stopped cluster as a person's start would: the minimum balance and every start gate (a budget's hard
     * cap) must allow it, and the rule must still say so. A refusal changes nothing.
     */
    async startBySystem(accountId: string, clusterId: string, decide: SystemDecision): Promise<SystemStartResult> {
      const result = await db.transaction(async (tx): Promise<SystemStartResult> => {
        const row = await repository.lockForAccount(accountId, clusterId, tx);
        if (!row || !canClusterDo('start', row.status as ClusterStatus)) return { started: false, refusal: 'state' };
        if (!(await power.holdForStart(row.subscriptionId, accountId, tx)).balanceAllowsStart)
          return { started: false, refusal: 'balance' };
        const refusal = await power.startRefusal(accountId, row.subscriptionId, tx, startingCluster(row));
        if (refusal) return { started: false, refusal: refusal.code };
        const description = await decide(lockedOf(row), tx);
        if (!description) return { started: false, refusal: 'rule' };
        await repository.update(row.id, { status: 'STARTING', statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
        await records.audit(row.id, 'CLUSTER_START_REQUESTED', description, 'System', tx);
        return { started: true };
      });
      if (result.started) await follow(clusterId);
      return result;
    },
  };
}
export type SystemPower = ReturnType<typeof createSystemPower>;

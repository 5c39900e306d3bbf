/**
 * Resizing a cluster's query engines (docs/clusters.md, Resizing). An offline cluster takes the new shape at once: the
 * next start brings it up. An online one keeps its shape in the row while the cloud moves the engines (resize_to_*
 * names the target, and reconcile follows the cloud until it reports the engines in place, then writes
 * CLUSTER_RESIZED, from which metering charges the new cores). Growing is refused like a start; shrinking never is.
 */
import {
  CLUSTER_SIZE_MESSAGES,
  MESSAGES,
  formatUsdCents,
  queryEngineCores,
  shapeLabel,
  sizeSpecOf,
  type ClusterSize,
  type ClusterStatus,
} from '@kumo/contract';
import type { QueryEngineShape } from '../../adapters/cloud/index.js';
import type { Database } from '../../db/client.js';
import { badRequest, businessRule, conflict } from '../../errors.js';
import { notFoundCluster, type Caller, type ClusterRecords, type Follow } from './cluster-records.js';
import type { ClustersRepository } from './clusters.repository.js';
import { startingCluster, type ClusterPower } from './power.js';

export interface Shape {
  size: ClusterSize;
  queryEngines: number;
}

/** The cloud's word for a shape: the size's instance type, this many. */
export const engineShapeOf = (size: string, queryEngines: number): QueryEngineShape => ({
  instanceType: sizeSpecOf(size as ClusterSize).instance_type,
  count: queryEngines,
});

/**
 * What a running cluster of the subscription costs per billable hour with these query-engine cores, at the account's
 * rates: attached by the wiring (metering's), so the audit log tells the cost before and after.
 */
export type ShapePricer = (accountId: string, subscriptionId: string, dr: boolean, queryEngineCores: number) => Promise<number>;

export interface ResizeOutcome {
  deploymentId: string;
  status: ClusterStatus;
  shape: Shape;
  /** The engines are being moved now (the cluster was online). */
  resizing: boolean;
}

export function createClusterResize(deps: {
  db: Database;
  repository: ClustersRepository;
  records: Pick<ClusterRecords, 'actorOf' | 'audit'>;
  power: Pick<ClusterPower, 'holdForStart' | 'startRefusal'>;
  follow: Follow;
}) {
  const { db, repository, power, follow } = deps;
  const { actorOf, audit } = deps.records;
  let pricer: ShapePricer | undefined;

  async function costs(accountId: string, subscriptionId: string, dr: boolean, before: number, after: number): Promise<string> {
    if (!pricer) return '';
    const [from, to] = await Promise.all([pricer(accountId, subscriptionId, dr, before), pricer(accountId, subscriptionId, dr, after)]);
    return ` (hourly cost ${formatUsdCents(from)} → ${formatUsdCents(to)})`;
  }

  return {
    attachShapePricer(next: ShapePricer): void {
      pricer = next;
    },

    async resize(caller: Caller, id: string, shape: Shape): Promise<ResizeOutcome> {
      const actor = await actorOf(caller);
      const outcome = await db.transaction(async (tx) => {
        const row = await repository.lockForAccount(caller.accountId, id, tx);
        if (!row) throw notFoundCluster();
        if (row.resizeToSize) throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_SIZE_MESSAGES.resizeInProgress);
        if (row.status !== 'ONLINE' && row.status !== 'OFFLINE')
          throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_SIZE_MESSAGES.resizeNotAllowed);
        if (row.size === shape.size && row.queryEngines === shape.queryEngines) {
          throw badRequest('VALIDATION_FAILED', CLUSTER_SIZE_MESSAGES.nothingToChange, { size: CLUSTER_SIZE_MESSAGES.nothingToChange });
        }
        const before = queryEngineCores(row.size as ClusterSize, row.queryEngines);
        const after = queryEngineCores(shape.size, shape.queryEngines);
        if (after > before) {
          if (!(await power.holdForStart(row.subscriptionId, caller.accountId, tx)).balanceAllowsStart)
            throw businessRule('INSUFFICIENT_BALANCE', MESSAGES.minimumBalance);
          const refusal = await power.startRefusal(caller.accountId, row.subscriptionId, tx, {
            ...startingCluster(row),
            queryEngineCores: after,
          });
          if (refusal) throw businessRule(refusal.code, refusal.message);
        }
        const online = row.status === 'ONLINE';
        const by = typeof actor === 'string' ? `the ${actor.toLowerCase()}` : actor.email;
        const priced = await costs(caller.accountId, row.subscriptionId, row.backupRegion !== null, before, after);
        const moves = `${row.name} resized from ${shapeLabel(row.size, row.queryEngines)} to ${shapeLabel(shape.size, shape.queryEngines)}`;
        const when = online ? 'the query engines are being moved' : 'the next start brings it up';
        if (online) {
          await repository.update(
            row.id,
            { resizeToSize: shape.size, resizeToEngines: shape.queryEngines, resizeCommandPending: true },
            tx,
          );
        } else {
          // Nothing runs: the shape is the cluster's now, and the cloud learns it with the next command.
          await repository.update(row.id, { size: shape.size, queryEngines: shape.queryEngines, resizeCommandPending: true }, tx);
        }
        await audit(row.id, 'CLUSTER_RESIZE_REQUESTED', `${moves} by ${by}${priced}; ${when}.`, actor, tx);
        return { deploymentId: id, status: row.status as ClusterStatus, shape, resizing: online };
      });
      await follow(id);
      return outcome;
    },
  };
}
export type ClusterResize = ReturnType<typeof createClusterResize>;

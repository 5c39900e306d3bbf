/**
 * What every clusters use case shares: who is asking, finding the caller's cluster, naming the actor, writing an
 * audit entry and queuing a follow-up look at a busy cluster.
 */
import { CLUSTER_MESSAGES, type AuditEvent } from '@kumo/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Tx } from '../../db/client.js';
import { notFound } from '../../errors.js';
import type { AccountCaller } from '../../http/caller.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { ClusterView, ClustersRepository } from './clusters.repository.js';

export const CLUSTER_JOBS = { follow: 'clusters.follow', sweep: 'clusters.sweep' } as const;

/** Who caused an event, as the audit log shows it. */
export type Actor = { userId: string; email: string } | 'Schedule' | 'System';

/** Who asks a clusters use case: someone working in an account (staff acting for a customer name the customer's ids). */
export type Caller = Pick<AccountCaller, 'accountId' | 'userId' | 'actingUserId' | 'apiToken'>;

export const notFoundCluster = () => notFound('NOT_FOUND', CLUSTER_MESSAGES.clusterNotFound);

/** The e-mail of a person actor (the callers that use it always have one). */
export const emailOf = (actor: Actor): string => (actor as { email: string }).email;

export type ClusterRecords = ReturnType<typeof createClusterRecords>;

/** An audit entry as written, with the cluster it is about. */
export interface AuditedEntry {
  clusterId: string;
  clusterName: string;
  accountId: string;
  subscriptionId: string;
  event: AuditEvent;
  description: string;
  at: Date;
  /** The cluster's status as the entry is written. */
  status: string;
  /** Its query engines' size and count as the entry is written. */
  shape: { size: string; queryEngines: number };
}

/** Told of each audit entry in its transaction (the account's webhooks, attached by services.ts). */
export type AuditListener = (entry: AuditedEntry, tx?: Tx) => Promise<void>;

export function createClusterRecords(deps: { repository: ClustersRepository; clock: Clock }) {
  const { repository, clock } = deps;
  const listeners: AuditListener[] = [];

  async function requireCluster(caller: Caller, id: string, options: { includeDeleted?: boolean } = {}): Promise<ClusterView> {
    const view = await repository.findForAccount(caller.accountId, id, options);
    if (!view) throw notFoundCluster();
    return view;
  }

  async function actorOf(caller: Caller): Promise<Actor> {
    const userId = caller.actingUserId ?? caller.userId;
    const email = (await repository.userEmail(userId)) ?? 'unknown';
    // A script's call is told apart from its creator's own in the trail, by the token's name.
    return { userId, email: caller.apiToken ? `${email} (API token "${caller.apiToken.name}")` : email };
  }

  async function audit(clusterId: string, event: AuditEvent, description: string, actor: Actor, tx?: Tx): Promise<void> {
    const at = clock.now();
    await repository.audit(
      {
        clusterId,
        event,
        description,
        actorUserId: typeof actor === 'string' ? null : actor.userId,
        actorLabel: typeof actor === 'string' ? actor : actor.email,
        createdAt: at,
      },
      tx,
    );
    if (listeners.length === 0) return;
    const cluster = await repository.findById(clusterId, tx);
    if (!cluster) return;
    const entry = {
      clusterId,
      clusterName: cluster.name,
      accountId: cluster.accountId,
      subscriptionId: cluster.subscriptionId,
      event,
      description,
      at,
      status: cluster.status,
      shape: { size: cluster.size, queryEngines: cluster.queryEngines },
    };
    for (const listener of listeners) await listener(entry, tx);
  }

  /** Adds a step run with every audit entry written, in its transaction (the wiring attaches the webhooks here). */
  function attachAuditListener(listener: AuditListener): void {
    listeners.push(listener);
  }

  return { requireCluster, actorOf, audit, attachAuditListener };
}

export type Follow = (clusterId: string, later?: boolean) => Promise<void>;

/** Queues a look at the cluster: at once after a request (the command reaches the cloud now), later while it stays busy. */
export function createFollow(deps: { jobs: JobQueue; logger: FastifyBaseLogger; followIntervalSeconds: number }): Follow {
  return async (clusterId, later = false) => {
    try {
      await deps.jobs.send(
        CLUSTER_JOBS.follow,
        { deploymentId: clusterId },
        later ? { startAfterSeconds: deps.followIntervalSeconds } : undefined,
      );
    } catch (error) {
      // The minute sweep finds every busy cluster anyway.
      deps.logger.warn({ err: error, clusterId }, 'could not queue the cluster follow-up; the sweep will pick it up');
    }
  };
}

/**
 * Network access per cluster: anywhere, or only the ranges listed. The list is read and changed by the account's
 * owner and admins (and WRITE tokens); each change is in the cluster's audit log with who made it. `allowsAddress`
 * is the check every door of the cluster asks (its SQL endpoint, the simulated Kumo Manager and Web Portal pages);
 * on AWS the cluster's security group is brought to the list as well, after the change is written: at once, and
 * again by the minute sweep until the cloud has it.
 */
import {
  NETWORK_ACCESS_LIMITS,
  NETWORK_ACCESS_MESSAGES,
  addressInRange,
  describeNetworkAccess,
  type NetworkAccess,
  type NetworkAccessResponse,
} from '@kumo/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { CloudProvisioner } from '../../adapters/cloud/index.js';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { badRequest } from '../../errors.js';
import { emailOf, notFoundCluster, type Actor, type Caller, type ClusterRecords } from './cluster-records.js';
import type { ClustersRepository } from './clusters.repository.js';
import { DEPLOYED_STATUSES, type NetworkAccessRow } from './network-access.repository.js';

type Entries = NetworkAccess['allowed'];

const sameList = (a: { allowAnywhere: boolean; allowed: Entries }, b: NetworkAccess) =>
  a.allowAnywhere === b.allow_anywhere && JSON.stringify(a.allowed) === JSON.stringify(b.allowed);

/** What the cloud's firewall should let in: null for anywhere. */
const ingressOf = (row: Pick<NetworkAccessRow, 'allowAnywhere' | 'allowed'> | undefined): string[] | null =>
  !row || row.allowAnywhere ? null : row.allowed.map((entry) => entry.cidr);

export function createClusterNetworkAccess(deps: {
  db: Database;
  repository: ClustersRepository;
  cloud: Pick<CloudProvisioner, 'applyNetworkAccess'>;
  records: Pick<ClusterRecords, 'requireCluster' | 'actorOf' | 'audit'>;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  const { db, repository, cloud, clock, logger } = deps;
  const { requireCluster, actorOf, audit } = deps.records;

  const respond = (clusterId: string, row: NetworkAccessRow | undefined): NetworkAccessResponse => ({
    deployment_id: clusterId,
    allow_anywhere: row?.allowAnywhere ?? true,
    allowed: row?.allowed ?? [],
    updated_at: row?.updatedAt.toISOString() ?? null,
    updated_by: row?.updatedByLabel ?? null,
  });

  /** Brings the cloud's firewall to the cluster's list, when the cloud has one and the stack stands; else waits. */
  async function carryNetworkAccess(clusterId: string): Promise<void> {
    const [cluster, access] = await Promise.all([repository.findById(clusterId), repository.networkAccessOf(clusterId)]);
    if (!cluster || !access || access.cloudVersion >= access.version) return;
    if (!(DEPLOYED_STATUSES as readonly string[]).includes(cluster.status)) return;
    if (cloud.applyNetworkAccess) await cloud.applyNetworkAccess(cluster.stackName, ingressOf(access), cluster.region);
    await repository.markNetworkAccessCarried(clusterId, access.version);
  }

  return {
    async getNetworkAccess(caller: Caller, id: string): Promise<NetworkAccessResponse> {
      const { cluster } = await requireCluster(caller, id);
      return respond(cluster.id, await repository.networkAccessOf(cluster.id));
    },

    /**
     * Replaces the list. Changes of one cluster are serialised on its row lock, and the limit is checked again in the
     * transaction that writes, whatever the request's schema said.
     */
    async putNetworkAccess(caller: Caller, id: string, request: NetworkAccess): Promise<NetworkAccessResponse> {
      const actor = await actorOf(caller);
      const now = clock.now();
      const saved = await db.transaction(async (tx) => {
        const cluster = await repository.lockForAccount(caller.accountId, id, tx);
        if (!cluster) throw notFoundCluster();
        if (request.allowed.length > NETWORK_ACCESS_LIMITS.maxEntries) {
          throw badRequest('VALIDATION_FAILED', NETWORK_ACCESS_MESSAGES.tooMany, { allowed: NETWORK_ACCESS_MESSAGES.tooMany });
        }
        const before = await repository.networkAccessOf(cluster.id, tx);
        if (sameList(before ?? { allowAnywhere: true, allowed: [] }, request))
          return { clusterId: cluster.id, row: before, changed: false };
        const row = await repository.saveNetworkAccess(
          { clusterId: cluster.id, ...savedBy(actor), allowAnywhere: request.allow_anywhere, allowed: request.allowed, updatedAt: now },
          tx,
        );
        const was = describeNetworkAccess(
          before ? { allow_anywhere: before.allowAnywhere, allowed: before.allowed } : { allow_anywhere: true, allowed: [] },
        );
        const said = `Network access of ${cluster.name} changed by ${emailOf(actor)}: ${was} → ${describeNetworkAccess(request)}.`;
        await audit(cluster.id, 'CLUSTER_NETWORK_ACCESS_CHANGED', said, actor, tx);
        return { clusterId: cluster.id, row, changed: true };
      });
      if (saved.changed) {
        // The change stands once written; the sweep carries it to the cloud should this attempt fail.
        await carryNetworkAccess(saved.clusterId).catch((error: unknown) =>
          logger.warn({ err: error, clusterId: saved.clusterId }, 'could not bring the cloud firewall to the network access list yet'),
        );
      }
      return respond(saved.clusterId, saved.row);
    },

    /**
     * Whether the cluster answers this address: yes when it is open to anywhere (or has no list, as clusters made
     * before the list existed), else when a listed range holds it. An IPv4 address written as IPv6 is IPv4.
     */
    async allowsAddress(clusterId: string, address: string): Promise<boolean> {
      const row = await repository.networkAccessOf(clusterId);
      if (!row || row.allowAnywhere) return true;
      return row.allowed.some((entry) => addressInRange(address, entry.cidr));
    },

    /** A new cluster's list, in its creation's transaction (left out of the request: anywhere, as before). */
    async saveNetworkAccessAtCreation(clusterId: string, access: NetworkAccess | undefined, actor: Actor, tx: Tx): Promise<void> {
      const list = access ?? { allow_anywhere: true, allowed: [] };
      await repository.saveNetworkAccess(
        // Anywhere is what the stack is made with; a list is carried to it once the stack stands.
        {
          clusterId,
          ...savedBy(actor),
          allowAnywhere: list.allow_anywhere,
          allowed: list.allowed,
          updatedAt: clock.now(),
          cloudVersion: list.allow_anywhere ? 1 : 0,
        },
        tx,
      );
    },

    /** What the cloud should let in when the stack is made: null for anywhere. */
    async ingressAtCreation(clusterId: string): Promise<string[] | null> {
      return ingressOf(await repository.networkAccessOf(clusterId));
    },

    /** The minute sweep's part: every list the cloud's firewall is behind on. */
    async carryPendingNetworkAccess(): Promise<void> {
      for (const id of await repository.networkAccessBehindCloud()) {
        try {
          await carryNetworkAccess(id);
        } catch (error) {
          logger.warn({ err: error, clusterId: id }, 'could not bring the cloud firewall to the network access list');
        }
      }
    },
  };
}

function savedBy(actor: Actor): { updatedByUserId: string | null; updatedByLabel: string } {
  return typeof actor === 'string'
    ? { updatedByUserId: null, updatedByLabel: actor }
    : { updatedByUserId: actor.userId, updatedByLabel: actor.email };
}

export type ClusterNetworkAccess = ReturnType<typeof createClusterNetworkAccess>;

/** Creating a cluster with every server-side check of spec section 5, and the choices the create form offers. */
import {
  CLUSTER_LIMITS,
  CLUSTER_MESSAGES,
  cidrPrefixAllowed,
  cidrsOverlap,
  queryEngineCores,
  shapeLabel,
  type CidrResponse,
  type CreateClusterOrder,
  type EaVersionResponse,
  type KumoVersionsResponse,
  type RegionMapping,
} from '@kumo/contract';
import { randomUUID } from 'node:crypto';
import { parseCidr as parseNetwork, stackNameFor } from '../../adapters/cloud/index.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import { AppError, badRequest, businessRule, conflict } from '../../errors.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { AWS_REGION_MAPPING, backupRegionsOf, candidateCidrs, versionsFor } from './catalog.js';
import type { Caller, ClusterRecords, Follow } from './cluster-records.js';
import type { ClustersRepository } from './clusters.repository.js';
import type { Sealer } from '../../lib/crypto.js';
import { newPortalSqlCredential } from './sql-access.js';
import type { ClusterPower } from './power.js';
import type { ClusterNetworkAccess } from './network-access.js';

export function createClusterCreation(deps: {
  db: Database;
  repository: ClustersRepository;
  subscriptions: Pick<SubscriptionsService, 'requireOwned' | 'holdForNewCluster'>;
  records: Pick<ClusterRecords, 'actorOf' | 'audit'>;
  /** The start gates (a budget's hard cap): a new cluster runs once deployed, so what refuses a start refuses it too. */
  power: Pick<ClusterPower, 'startRefusal'>;
  network: Pick<ClusterNetworkAccess, 'saveNetworkAccessAtCreation'>;
  follow: Follow;
  clock: Clock;
  passwordSealer: Sealer;
}) {
  const { db, repository, subscriptions, power, network, follow, clock, passwordSealer } = deps;
  const { actorOf, audit } = deps.records;

  return {
    regionMapping(): RegionMapping {
      return { region_mapping: AWS_REGION_MAPPING.map((entry) => ({ region: entry.region, backup_regions: [...entry.backup_regions] })) };
    },

    /** The first 10.x.0.0/16 that overlaps none of the account's clusters in the chosen regions. */
    async suggestCidr(
      accountId: string,
      query: { deploymentRegion: string; backupRegion?: string; enableDrFlag: boolean },
    ): Promise<CidrResponse> {
      const backups = backupRegionsOf(query.deploymentRegion);
      if (!backups)
        throw badRequest('VALIDATION_FAILED', CLUSTER_MESSAGES.regionUnknown, { deploymentRegion: CLUSTER_MESSAGES.regionUnknown });
      const regions = [query.deploymentRegion];
      if (query.enableDrFlag && query.backupRegion) {
        if (!backups.includes(query.backupRegion)) {
          throw badRequest('VALIDATION_FAILED', CLUSTER_MESSAGES.backupRegionInvalid, {
            backupRegion: CLUSTER_MESSAGES.backupRegionInvalid,
          });
        }
        regions.push(query.backupRegion);
      }
      const taken = await repository.cidrsInRegions(accountId, regions);
      const free = candidateCidrs().find((candidate) => !taken.some((cidr) => cidrsOverlap(candidate, cidr)));
      if (!free) throw conflict('CIDR_OVERLAP', CLUSTER_MESSAGES.cidrOverlap);
      return { cidr: free };
    },

    async eaVersionFlag(accountId: string): Promise<EaVersionResponse> {
      return { kumo_ea_version_enabled: await repository.previewEnabled(accountId) };
    },

    async versions(accountId: string): Promise<KumoVersionsResponse> {
      return { kumo_versions: versionsFor(await repository.previewEnabled(accountId)) };
    },

    async create(caller: Caller, order: CreateClusterOrder): Promise<{ deploymentId: string; subscriptionId: string }> {
      // A first look for a quick answer; the transaction below checks again under the subscription's lock.
      const subscription = await subscriptions.requireOwned(caller.accountId, order.subscription_id);

      // Rules that need data, reported field by field like the schema's own.
      const fieldErrors: Record<string, string> = {};
      const backups = backupRegionsOf(order.region);
      if (!backups) fieldErrors.region = CLUSTER_MESSAGES.regionUnknown;
      else if (order.enable_dr_flag && order.backup_region && !backups.includes(order.backup_region)) {
        fieldErrors.backup_region = CLUSTER_MESSAGES.backupRegionInvalid;
      }
      if (!versionsFor(await repository.previewEnabled(caller.accountId)).some((v) => v.version === order.kumo_version)) {
        fieldErrors.kumo_version = CLUSTER_MESSAGES.versionUnknown;
      }
      if (!parseNetwork(order.cidr) || !cidrPrefixAllowed(order.cidr)) fieldErrors.cidr = CLUSTER_MESSAGES.cidrNetworkAddress;
      if (Object.keys(fieldErrors).length > 0) {
        throw badRequest('VALIDATION_FAILED', Object.values(fieldErrors)[0]!, fieldErrors);
      }
      if (subscription.balanceCents < CLUSTER_LIMITS.minimumBalanceCents) {
        throw businessRule('INSUFFICIENT_BALANCE', CLUSTER_MESSAGES.insufficientBalance);
      }

      const regions = [order.region, ...(order.enable_dr_flag && order.backup_region ? [order.backup_region] : [])];
      const actor = await actorOf(caller);
      const now = clock.now();
      const deploymentId = await db.transaction(async (tx) => {
        // Locks the subscription until commit: creations in it see each other's names and CIDRs, and a deletion either
        // comes first (the subscription is gone: 404) or waits and sees this cluster (and is refused).
        const held = await subscriptions.holdForNewCluster(caller.accountId, subscription.id, tx);
        if (held.balanceCents < CLUSTER_LIMITS.minimumBalanceCents) {
          throw businessRule('INSUFFICIENT_BALANCE', CLUSTER_MESSAGES.insufficientBalance);
        }
        const refusal = await power.startRefusal(caller.accountId, subscription.id, tx, {
          dr: regions.length > 1,
          queryEngineCores: queryEngineCores(order.size, order.query_engines),
        });
        if (refusal) throw businessRule(refusal.code, refusal.message);
        if (await repository.nameTaken(subscription.id, order.cluster_name, tx)) {
          throw new AppError(409, 'CLUSTER_NAME_TAKEN', CLUSTER_MESSAGES.nameTaken, { cluster_name: CLUSTER_MESSAGES.nameTaken });
        }
        const taken = await repository.cidrsInRegions(caller.accountId, regions, tx);
        if (taken.some((cidr) => cidrsOverlap(cidr, order.cidr))) {
          throw new AppError(409, 'CIDR_OVERLAP', CLUSTER_MESSAGES.cidrOverlap, { cidr: CLUSTER_MESSAGES.cidrOverlap });
        }
        const id = randomUUID();
        await repository.insert(
          {
            id,
            accountId: caller.accountId,
            subscriptionId: subscription.id,
            name: order.cluster_name,
            description: order.description,
            cloudProvider: order.cloud_provider,
            region: order.region,
            backupRegion: order.enable_dr_flag ? order.backup_region : null,
            cidr: order.cidr,
            kumoVersion: order.kumo_version,
            size: order.size,
            queryEngines: order.query_engines,
            stackName: stackNameFor(id),
            status: 'DEPLOYING',
            statusUpdatedAt: now,
            sealedPassword: passwordSealer.seal(order.password),
            sealedSqlCredential: passwordSealer.seal(newPortalSqlCredential()),
            createdByUserId: caller.userId,
            createdAt: now,
          },
          tx,
        );
        await network.saveNetworkAccessAtCreation(id, order.network_access, actor, tx);
        await audit(
          id,
          'CLUSTER_CREATE_REQUESTED',
          `Deployment of ${order.cluster_name} (${shapeLabel(order.size, order.query_engines)}) in ${order.region} requested by ${actor === 'System' ? 'the system' : (actor as { email: string }).email}.`,
          actor,
          tx,
        );
        return id;
      });
      await follow(deploymentId);
      return { deploymentId, subscriptionId: subscription.id };
    },
  };
}

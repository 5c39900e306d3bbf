/**
 * The clusters module's rules: creation with every server-side check of spec section 5, the lifecycle
 * (spec section 4) driven by what the cloud reports, start and stop, deletion approved with the account
 * owner's OTP, the audit log and the weekly schedule.
 *
 * State changes the customer asks for are written first (status, a pending cloud command, an audit entry)
 * and then carried to the cloud by reconcile(), which the follow job, the minute sweep and status reads
 * all call. reconcile() is idempotent and takes the cluster row with SKIP LOCKED, so any number of them
 * may run; a restart simply picks up the rows that are still busy.
 */
import {
  CLUSTER_LIMITS,
  CLUSTER_MESSAGES,
  FAILED_DEPLOYMENT_STATUSES,
  FAILED_STACK_STATUSES,
  MESSAGES,
  OTP,
  canClusterDo,
  centsToAmount,
  cidrPrefixAllowed,
  cidrsOverlap,
  clusterDeletionStartedMessage,
  isClusterBusy,
  type AuditEvent,
  type AuditLogResponse,
  type CidrResponse,
  type Cluster,
  type ClusterActionResponse,
  type ClusterDetailKind,
  type ClusterDetailsResponse,
  type ClusterStatus,
  type ClusterViewResponse,
  type CreateClusterOrder,
  type CreateOperationRequest,
  type DeploymentStatus,
  type DeploymentStatusResponse,
  type EaVersionResponse,
  type KumoVersionsResponse,
  type OperationResult,
  type OperationStatusResponse,
  type PutScheduleRequest,
  type RegionMapping,
  type ScheduleResponse,
  type ScheduleRule,
  type StackStatus,
  type TimelineResponse,
} from '@kumo/contract';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  CLUSTER_LINK_TICKET_SECONDS,
  CloudRequestError,
  stackNameFor,
  withManagerTicket,
  type CloudProvisioner,
  type ClusterDescription,
} from '../../adapters/cloud/index.js';
import { parseCidr as parseNetwork } from '../../adapters/cloud/index.js';
import { NODE_LAYOUT, capacityFromNodes } from '../../adapters/cloud/index.js';
import { HOUR, MINUTE, monthOf, type Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import type { StoredClusterNode } from '../../db/schema.js';
import { AppError, badRequest, businessRule, conflict, notFound, tooManyRequests } from '../../errors.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { AuthService } from '../auth/index.js';
import type { MailService } from '../mail/index.js';
import type { ClusterChargeDays } from '../metering/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { AWS_REGION_MAPPING, backupRegionsOf, candidateCidrs, versionsFor } from './catalog.js';
import type { ClusterRow, ClusterView, ClustersRepository } from './clusters.repository.js';
import { approvalOtpMail } from './approval-mail.js';
import { openPassword, sealPassword } from './password-seal.js';
import { isValidTimeZone, nextOccurrence, occurrencesBetween, sortRules } from './schedule.js';
import { buildTimeline, timelineWindow } from './timeline.js';

export const CLUSTER_JOBS = { follow: 'clusters.follow', sweep: 'clusters.sweep' } as const;

/** Who caused an event, as the audit log shows it. */
export type Actor = { userId: string; email: string } | 'Schedule' | 'System';

export interface Caller {
  accountId: string;
  userId: string;
  /** The staff member behind a customer view (the token's actor): the one any audit entry names. */
  actingUserId?: string;
}

const notFoundCluster = () => notFound('NOT_FOUND', CLUSTER_MESSAGES.clusterNotFound);
const DEFAULT_TIME_ZONE = 'UTC';

export function createClustersService(deps: {
  db: Database;
  repository: ClustersRepository;
  cloud: CloudProvisioner;
  subscriptions: SubscriptionsService;
  auth: AuthService;
  mail: MailService;
  jobs: JobQueue;
  clock: Clock;
  secret: string;
  logger: FastifyBaseLogger;
  /** How often a busy cluster is looked at again, in real seconds. */
  followIntervalSeconds: number;
  /** A status read asks the cloud again only if this many seconds passed since this process last did (0: always). */
  readRefreshSeconds?: number;
  /** Each UTC day's charges of a cluster (metering's daily rollups), for its timeline. */
  chargeDays: ClusterChargeDays;
}) {
  const { db, repository: repo, cloud, subscriptions, auth, mail, jobs, clock, secret, logger } = deps;
  const approvalKey = (email: string) => `approval:${email}`;
  // Wrong approval OTPs lock the person typing them, not the approver whose OTP it is.
  const typerKey = (userId: string) => `approval-typed-by:${userId}`;

  // ------------------------------------------------------------------ presentation

  /** A Kumo Manager or Web Portal address with the single-sign-on ticket the cluster's pages require. */
  function ticketed(c: ClusterRow, url: string | null): string | null {
    if (!url || c.status !== 'ONLINE') return null;
    const expiresAt = new Date(clock.now().getTime() + CLUSTER_LINK_TICKET_SECONDS * 1000);
    return withManagerTicket(url, secret, { deploymentId: c.id, holder: c.accountId, expiresAt });
  }

  function present(view: ClusterView): Cluster {
    const c = view.cluster;
    const status = c.status as ClusterStatus;
    return {
      deployment_id: c.id,
      cluster_id: `KC-${c.id.slice(0, 8).toUpperCase()}`,
      cluster_name: c.name,
      cluster_description: c.description,
      status,
      cluster_status: status,
      status_update_date: c.statusUpdatedAt.toISOString(),
      cluster_capacity: c.capacity,
      region: c.region,
      deployment_region: c.region,
      cloud_provider: c.cloudProvider as Cluster['cloud_provider'],
      backup_region: c.backupRegion,
      cidr: c.cidr,
      kumo_version: c.kumoVersion,
      stack_name: c.stackName,
      deployed_by: view.creatorName,
      email_id: view.creatorEmail,
      subscription_id: c.subscriptionId,
      subscription_name: view.subscriptionName,
      subscription_balance: centsToAmount(view.subscriptionBalanceCents),
      // Links are offered only while the cluster is online (spec section 2).
      kumo_manager_url: ticketed(c, c.managerUrl),
      kumo_url: ticketed(c, c.portalUrl),
      cluster_stack_status: (c.stackStatus as StackStatus | null) ?? null,
      kumo_cluster_deployment_status: (c.deploymentStatus as DeploymentStatus | null) ?? null,
      created_at: c.createdAt.toISOString(),
      deployed_on: c.deployedAt?.toISOString() ?? null,
    };
  }

  async function requireCluster(caller: Caller, id: string, options: { includeDeleted?: boolean } = {}): Promise<ClusterView> {
    const view = await repo.findForAccount(caller.accountId, id, options);
    if (!view) throw notFoundCluster();
    return view;
  }

  async function actorOf(caller: Caller): Promise<Actor> {
    const userId = caller.actingUserId ?? caller.userId;
    return { userId, email: (await repo.userEmail(userId)) ?? 'unknown' };
  }

  async function audit(clusterId: string, event: AuditEvent, description: string, actor: Actor, tx?: Tx): Promise<void> {
    await repo.audit(
      {
        clusterId,
        event,
        description,
        actorUserId: typeof actor === 'string' ? null : actor.userId,
        actorLabel: typeof actor === 'string' ? actor : actor.email,
        createdAt: clock.now(),
      },
      tx,
    );
  }

  /** Queues a look at the cluster: at once after a request (the command reaches the cloud now), later while it stays busy. */
  async function follow(clusterId: string, later = false): Promise<void> {
    try {
      await jobs.send(
        CLUSTER_JOBS.follow,
        { deploymentId: clusterId },
        later ? { startAfterSeconds: deps.followIntervalSeconds } : undefined,
      );
    } catch (error) {
      // The minute sweep finds every busy cluster anyway.
      logger.warn({ err: error, clusterId }, 'could not queue the cluster follow-up; the sweep will pick it up');
    }
  }

  // ------------------------------------------------------------------ reconcile: the cloud's word into our rows

  const nodesOf = (description: ClusterDescription): StoredClusterNode[] =>
    description.nodes.map((node) => ({
      host: node.host,
      role: node.role,
      instanceType: node.instanceType,
      core: node.core,
      nodeStatus: node.nodeStatus,
      serviceName: node.serviceName,
      serviceStatus: node.serviceStatus,
    }));

  const capacityOf = (description: ClusterDescription) =>
    capacityFromNodes(description.nodes.map((node) => ({ role: node.role, running: node.serviceStatus === 'Online' })));

  /** Brings one cluster's row up to date with the cloud; returns whether it is still busy. */
  async function reconcile(clusterId: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const row = await repo.tryLock(clusterId, tx);
      if (!row) {
        // Someone else is reconciling it right now: keep following only if it still exists and is busy.
        const seen = await repo.findById(clusterId, tx);
        return !!seen && isClusterBusy(seen.status as ClusterStatus);
      }
      if (!isClusterBusy(row.status as ClusterStatus)) return false;
      const now = clock.now();
      const patch: Partial<ClusterRow> = {};
      const move = (status: ClusterStatus) => Object.assign(patch, { status, statusUpdatedAt: now });

      try {
        if (row.status === 'DEPLOYING' && !row.stackId) {
          if (!row.sealedPassword) {
            move('FAILED');
            patch.failureReason = 'The deployment request was lost before it reached the cloud.';
            await audit(row.id, 'CLUSTER_DEPLOYMENT_FAILED', `Deployment of ${row.name} failed: ${patch.failureReason}`, 'System', tx);
            await repo.update(row.id, patch, tx);
            return false;
          }
          const { stackId } = await cloud.createCluster({
            deploymentId: row.id,
            stackName: row.stackName,
            settings: {
              clusterName: row.name,
              region: row.region,
              backupRegion: row.backupRegion,
              cidr: row.cidr,
              kumoVersion: row.kumoVersion,
            },
            password: openPassword(secret, row.sealedPassword),
          });
          // The cloud has the password now: the portal forgets it.
          Object.assign(patch, { stackId, sealedPassword: null });
        }
        if (row.cloudCommandPending) {
          if (row.status === 'STARTING') await cloud.startCluster(row.stackName, row.region);
          if (row.status === 'STOPPING') await cloud.stopCluster(row.stackName, row.region);
          if (row.status === 'DELETING') await cloud.deleteCluster(row.stackName, row.region);
          patch.cloudCommandPending = false;
        }
      } catch (error) {
        if (error instanceof CloudRequestError && !error.retryable && row.status === 'DEPLOYING') {
          move('FAILED');
          Object.assign(patch, { failureReason: error.message, sealedPassword: null, stackStatus: 'CREATE_FAILED' });
          await audit(row.id, 'CLUSTER_DEPLOYMENT_FAILED', `Deployment of ${row.name} failed: ${error.message}`, 'System', tx);
          await repo.update(row.id, patch, tx);
          return false;
        }
        // The cloud refused to start or stop (e.g. no capacity in the zone): back to where it was, said in the log.
        if (error instanceof CloudRequestError && !error.retryable && (row.status === 'STARTING' || row.status === 'STOPPING')) {
          const back: ClusterStatus = row.status === 'STARTING' ? 'OFFLINE' : 'ONLINE';
          move(back);
          Object.assign(patch, { cloudCommandPending: false, failureReason: error.message });
          const verb = row.status === 'STARTING' ? 'start' : 'stop';
          await audit(
            row.id,
            row.status === 'STARTING' ? 'CLUSTER_STOPPED' : 'CLUSTER_STARTED',
            `The cloud refused to ${verb} ${row.name}: ${error.message}`,
            'System',
            tx,
          );
          await repo.update(row.id, patch, tx);
          return false;
        }
        throw error;
      }

      const description = await cloud.describe(row.stackName, row.region);
      Object.assign(patch, {
        stackStatus: description.stackStatus,
        deploymentStatus: description.deploymentStatus,
        nodes: nodesOf(description),
        capacity: capacityOf(description),
      });

      switch (row.status) {
        case 'DEPLOYING': {
          if (description.stackStatus === 'CREATE_COMPLETE' && row.stackStatus !== 'CREATE_COMPLETE') {
            await audit(row.id, 'CLUSTER_RESOURCES_CREATED', `Cloud resources of ${row.name} were created.`, 'System', tx);
          }
          const stackFailed = !!description.stackStatus && FAILED_STACK_STATUSES.includes(description.stackStatus);
          const deploymentFailed = !!description.deploymentStatus && FAILED_DEPLOYMENT_STATUSES.includes(description.deploymentStatus);
          if (stackFailed || deploymentFailed) {
            move('FAILED');
            patch.failureReason = description.failureReason ?? null;
            await audit(
              row.id,
              'CLUSTER_DEPLOYMENT_FAILED',
              `Deployment of ${row.name} failed${description.failureReason ? `: ${description.failureReason}` : '.'}`,
              'System',
              tx,
            );
          } else if (description.deploymentStatus === 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE' && description.powerState === 'RUNNING') {
            move('ONLINE');
            Object.assign(patch, { deployedAt: now, managerUrl: description.managerUrl ?? null, portalUrl: description.portalUrl ?? null });
            await audit(row.id, 'CLUSTER_DEPLOYED', `${row.name} was deployed and is online.`, 'System', tx);
          }
          break;
        }
        case 'STARTING':
          if (!row.cloudCommandPending && description.powerState === 'RUNNING') {
            move('ONLINE');
            Object.assign(patch, { managerUrl: description.managerUrl ?? null, portalUrl: description.portalUrl ?? null });
            await audit(row.id, 'CLUSTER_STARTED', `${row.name} started and is online.`, 'System', tx);
          }
          break;
        case 'STOPPING':
          if (!row.cloudCommandPending && description.powerState === 'STOPPED') {
            move('OFFLINE');
            Object.assign(patch, { managerUrl: null, portalUrl: null, capacity: 0 });
            await audit(row.id, 'CLUSTER_STOPPED', `${row.name} stopped.`, 'System', tx);
          }
          break;
        case 'DELETING':
          if (!row.cloudCommandPending && (description.stackStatus === 'DELETE_COMPLETE' || description.stackStatus === null)) {
            move('DELETED');
            Object.assign(patch, { deletedAt: now, managerUrl: null, portalUrl: null, capacity: 0, nodes: [] });
            await subscriptions.adjustActiveClusterCount(row.subscriptionId, -1, tx);
            await audit(row.id, 'CLUSTER_DELETED', `${row.name} was deleted.`, 'System', tx);
          } else if (!row.cloudCommandPending && description.stackStatus === 'DELETE_FAILED') {
            // Some resources stayed behind (spec: DELETED_PARTIALLY, shown as Deleted): the cluster is gone for the
            // customer and no longer counts; what is left is for operators, named in the reason.
            move('DELETED_PARTIALLY');
            Object.assign(patch, {
              deletedAt: now,
              managerUrl: null,
              portalUrl: null,
              capacity: 0,
              nodes: [],
              failureReason: description.failureReason ?? 'DELETE_FAILED',
            });
            await subscriptions.adjustActiveClusterCount(row.subscriptionId, -1, tx);
            await audit(
              row.id,
              'CLUSTER_DELETED',
              `${row.name} was deleted; some cloud resources could not be removed and are left to the operators.`,
              'System',
              tx,
            );
            logger.warn(
              { clusterId: row.id, stackName: row.stackName, reason: description.failureReason },
              'cluster stack deletion failed: resources left behind',
            );
          }
          break;
      }
      await repo.update(row.id, patch, tx);
      return isClusterBusy((patch.status ?? row.status) as ClusterStatus);
    });
  }

  // When this process last refreshed a cluster for a read: polling consoles must not turn into cloud API storms.
  const lastReadRefresh = new Map<string, number>();

  /** Reconciles without letting a cloud failure break a read: the jobs retry it. */
  async function refreshQuietly(views: ClusterView[]): Promise<boolean> {
    let changed = false;
    const now = clock.now().getTime();
    for (const view of views) {
      if (!isClusterBusy(view.cluster.status as ClusterStatus)) continue;
      const last = lastReadRefresh.get(view.cluster.id);
      if (deps.readRefreshSeconds && last !== undefined && now - last < deps.readRefreshSeconds * 1000) continue;
      lastReadRefresh.set(view.cluster.id, now);
      if (lastReadRefresh.size > 10_000) lastReadRefresh.clear();
      try {
        await reconcile(view.cluster.id);
        changed = true;
      } catch (error) {
        logger.warn({ err: error, clusterId: view.cluster.id }, 'cluster refresh failed');
      }
    }
    return changed;
  }

  // ------------------------------------------------------------------ schedule

  function presentSchedule(
    clusterId: string,
    schedule: { enabled: boolean; timeZone: string; rules: ScheduleRule[] } | undefined,
  ): ScheduleResponse {
    const rules = sortRules(schedule?.rules ?? []);
    const timeZone = schedule?.timeZone ?? DEFAULT_TIME_ZONE;
    const next = schedule?.enabled ? nextOccurrence(rules, timeZone, clock.now()) : undefined;
    return {
      deployment_id: clusterId,
      enabled: schedule?.enabled ?? false,
      time_zone: timeZone,
      rules,
      next_run_at: next?.at.toISOString() ?? null,
      next_action: next?.action ?? null,
    };
  }

  /** Starts or stops a cluster on behalf of a person or the schedule; the caller holds the row lock. */
  async function beginPowerChange(row: ClusterRow, action: 'start' | 'stop', actor: Actor, tx: Tx): Promise<ClusterStatus> {
    const status: ClusterStatus = action === 'start' ? 'STARTING' : 'STOPPING';
    await repo.update(row.id, { status, statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
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

  async function balanceAllowsStart(subscriptionId: string, accountId: string, tx: Tx): Promise<boolean> {
    const subscription = await subscriptions.requireOwned(accountId, subscriptionId, tx);
    return subscription.balanceCents >= CLUSTER_LIMITS.minimumBalanceCents;
  }

  /** Acts on every schedule rule that fell due since the last check: the latest due action wins. */
  async function runSchedules(): Promise<number> {
    const now = clock.now();
    let acted = 0;
    for (const { schedule, accountId } of await repo.enabledSchedules()) {
      const due = occurrencesBetween(schedule.rules as ScheduleRule[], schedule.timeZone, schedule.lastCheckedAt, now).at(-1);
      const started = await db.transaction(async (tx) => {
        await repo.markScheduleChecked(schedule.clusterId, now, tx);
        if (!due) return false;
        const row = await repo.lockForAccount(accountId, schedule.clusterId, tx);
        if (!row) return false;
        const action = due.action === 'START' ? 'start' : 'stop';
        if (!canClusterDo(action, row.status as ClusterStatus)) return false;
        if (action === 'start' && !(await balanceAllowsStart(row.subscriptionId, accountId, tx))) {
          await audit(
            row.id,
            'CLUSTER_START_REQUESTED',
            `The schedule did not start ${row.name}: ${MESSAGES.minimumBalance}`,
            'Schedule',
            tx,
          );
          return false;
        }
        await beginPowerChange(row, action, 'Schedule', tx);
        return true;
      });
      if (started) {
        acted++;
        await follow(schedule.clusterId);
      }
    }
    return acted;
  }

  // ------------------------------------------------------------------ the API

  return {
    reconcile,
    /** For the subscriptions list (its ClusterDirectory). */
    liveClustersOf: (subscriptionIds: string[], tx?: Tx) => repo.liveOfSubscriptions(subscriptionIds, tx),
    /**
     * Every cluster of the account that is not deleted, with its subscription's name, whether or not that subscription
     * is still live: what the overdue guard starts from, so no running cluster escapes it.
     */
    async notDeletedOf(accountId: string) {
      return (await repo.listForAccount(accountId)).map((view) => ({
        id: view.cluster.id,
        name: view.cluster.name,
        status: view.cluster.status as ClusterStatus,
        subscriptionId: view.cluster.subscriptionId,
        subscriptionName: view.subscriptionName,
      }));
    },
    /** The account owner's e-mail (metering's notices go there). */
    ownerEmail: (accountId: string) => repo.ownerEmail(accountId),

    /**
     * Metering's overdue guard: stops the subscription's online clusters (never deletes them), with the reason in the
     * audit log: a balance below the overdue limit, or a subscription that is gone. Nothing restarts them later; the
     * customer starts them again. Returns the names of those stopped.
     */
    async stopForOverdue(accountId: string, subscriptionId: string, reason: string): Promise<string[]> {
      const stopped: string[] = [];
      for (const live of await repo.liveOfSubscriptions([subscriptionId])) {
        const done = await db.transaction(async (tx) => {
          const row = await repo.lockForAccount(accountId, live.id, tx);
          if (!row || !canClusterDo('stop', row.status as ClusterStatus)) return false;
          await repo.update(row.id, { status: 'STOPPING', statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
          await audit(row.id, 'CLUSTER_STOP_REQUESTED', `${row.name} is being stopped: ${reason}`, 'System', tx);
          return true;
        });
        if (done) {
          stopped.push(live.name);
          await follow(live.id);
        }
      }
      return stopped;
    },
    runSchedules,

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
      const taken = await repo.cidrsInRegions(accountId, regions);
      const free = candidateCidrs().find((candidate) => !taken.some((cidr) => cidrsOverlap(candidate, cidr)));
      if (!free) throw conflict('CIDR_OVERLAP', CLUSTER_MESSAGES.cidrOverlap);
      return { cidr: free };
    },

    async eaVersionFlag(accountId: string): Promise<EaVersionResponse> {
      return { kumo_ea_version_enabled: await repo.previewEnabled(accountId) };
    },

    async versions(accountId: string): Promise<KumoVersionsResponse> {
      return { kumo_versions: versionsFor(await repo.previewEnabled(accountId)) };
    },

    /** Staff will toggle this from the admin area; kept here so the rule has one owner. */
    setPreviewEnabled: (accountId: string, enabled: boolean, tx?: Tx) => repo.setPreviewEnabled(accountId, enabled, tx),

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
      if (!versionsFor(await repo.previewEnabled(caller.accountId)).some((v) => v.version === order.kumo_version)) {
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
        if (await repo.nameTaken(subscription.id, order.cluster_name, tx)) {
          throw new AppError(409, 'CLUSTER_NAME_TAKEN', CLUSTER_MESSAGES.nameTaken, { cluster_name: CLUSTER_MESSAGES.nameTaken });
        }
        const taken = await repo.cidrsInRegions(caller.accountId, regions, tx);
        if (taken.some((cidr) => cidrsOverlap(cidr, order.cidr))) {
          throw new AppError(409, 'CIDR_OVERLAP', CLUSTER_MESSAGES.cidrOverlap, { cidr: CLUSTER_MESSAGES.cidrOverlap });
        }
        const id = randomUUID();
        await repo.insert(
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
            stackName: stackNameFor(id),
            status: 'DEPLOYING',
            statusUpdatedAt: now,
            sealedPassword: sealPassword(secret, order.password),
            createdByUserId: caller.userId,
            createdAt: now,
          },
          tx,
        );
        await audit(
          id,
          'CLUSTER_CREATE_REQUESTED',
          `Deployment of ${order.cluster_name} in ${order.region} requested by ${actor === 'System' ? 'the system' : (actor as { email: string }).email}.`,
          actor,
          tx,
        );
        return id;
      });
      await follow(deploymentId);
      return { deploymentId, subscriptionId: subscription.id };
    },

    async view(accountId: string, subscriptionId?: string): Promise<ClusterViewResponse> {
      if (subscriptionId) await subscriptions.requireOwned(accountId, subscriptionId);
      let views = await repo.listForAccount(accountId, subscriptionId);
      if (await refreshQuietly(views)) views = await repo.listForAccount(accountId, subscriptionId);
      const groups = (await repo.subscriptionsOf(accountId)).filter((s) => !subscriptionId || s.id === subscriptionId);
      return groups.map((s) => ({
        subscription_id: s.id,
        subscription_name: s.name,
        clusters: views.filter((view) => view.cluster.subscriptionId === s.id).map(present),
      }));
    },

    async status(caller: Caller, id: string): Promise<DeploymentStatusResponse> {
      let view = await requireCluster(caller, id, { includeDeleted: true });
      if (await refreshQuietly([view])) view = await requireCluster(caller, id, { includeDeleted: true });
      const c = view.cluster;
      return {
        status: c.status as ClusterStatus,
        cluster_capacity: c.capacity,
        cluster_stack_status: (c.stackStatus as StackStatus | null) ?? null,
        kumo_cluster_deployment_status: (c.deploymentStatus as DeploymentStatus | null) ?? null,
        created_at: c.createdAt.toISOString(),
        completed_at: c.deployedAt?.toISOString() ?? (c.status === 'FAILED' ? c.statusUpdatedAt.toISOString() : null),
      };
    },

    async details(caller: Caller, id: string, detail: ClusterDetailKind): Promise<ClusterDetailsResponse> {
      let view = await requireCluster(caller, id);
      if (await refreshQuietly([view])) view = await requireCluster(caller, id);
      const configurations = NODE_LAYOUT.map((role) => ({
        service_name: role.label,
        node_count: role.nodeCount,
        instance_type: role.instanceType,
        core: role.coresPerNode,
      }));
      // DEPLOYMENT: the nodes as deployed (the fixed layout); CURRENT: as the cloud last reported them.
      const nodes =
        detail === 'DEPLOYMENT'
          ? NODE_LAYOUT.flatMap((role) =>
              Array.from({ length: role.nodeCount }, (_, i) => ({
                host: `${role.hostPrefix}-${i + 1}`,
                node_status: view.cluster.deployedAt ? 'Running' : 'Pending',
                service_name: role.serviceName,
                status: view.cluster.deployedAt ? 'Online' : 'Offline',
                instance_type: role.instanceType,
                core: role.coresPerNode,
              })),
            )
          : view.cluster.nodes.map((node) => ({
              host: node.host,
              node_status: node.nodeStatus,
              service_name: node.serviceName,
              status: node.serviceStatus,
              instance_type: node.instanceType,
              core: node.core,
            }));
      return { ...present(view), detail, cluster_configurations: configurations, nodes };
    },

    async start(caller: Caller, id: string): Promise<ClusterActionResponse> {
      const actor = await actorOf(caller);
      const status = await db.transaction(async (tx) => {
        const row = await repo.lockForAccount(caller.accountId, id, tx);
        if (!row) throw notFoundCluster();
        if (!canClusterDo('start', row.status as ClusterStatus)) throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.startNotAllowed);
        if (!(await balanceAllowsStart(row.subscriptionId, caller.accountId, tx)))
          throw businessRule('INSUFFICIENT_BALANCE', MESSAGES.minimumBalance);
        return beginPowerChange(row, 'start', actor, tx);
      });
      await follow(id);
      return { deployment_id: id, status, message: CLUSTER_MESSAGES.startStarted };
    },

    async stop(caller: Caller, id: string): Promise<ClusterActionResponse> {
      const actor = await actorOf(caller);
      const status = await db.transaction(async (tx) => {
        const row = await repo.lockForAccount(caller.accountId, id, tx);
        if (!row) throw notFoundCluster();
        if (!canClusterDo('stop', row.status as ClusterStatus)) throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.stopNotAllowed);
        return beginPowerChange(row, 'stop', actor, tx);
      });
      await follow(id);
      return { deployment_id: id, status, message: CLUSTER_MESSAGES.stopStarted };
    },

    /** Asks the account owner to approve a deletion: an OTP by mail, an operation to authenticate. */
    async requestOperation(caller: Caller, request: CreateOperationRequest): Promise<{ operationId: string }> {
      const view = await requireCluster(caller, request.action_payload.deployment_id);
      if (!canClusterDo('delete', view.cluster.status as ClusterStatus))
        throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.deleteNotAllowed);
      const approver = await repo.ownerEmail(caller.accountId);
      if (!approver) throw notFoundCluster();
      await auth.approvalOtp.assertNotLocked(typerKey(caller.userId));
      const otp = auth.approvalOtp.generate();
      const now = clock.now();
      const actor = await actorOf(caller);
      const { operationId, mailId } = await db.transaction(async (tx) => {
        const operationId = await repo.insertOperation(
          {
            accountId: caller.accountId,
            clusterId: view.cluster.id,
            actionName: request.action_name,
            requestedByUserId: caller.userId,
            approverEmail: approver,
            otpHash: auth.approvalOtp.hash(approvalKey(approver), otp),
            expiresAt: new Date(now.getTime() + OTP.validMinutes * MINUTE),
            firstSentAt: now,
            createdAt: now,
          },
          tx,
        );
        await audit(
          view.cluster.id,
          'CLUSTER_DELETE_REQUESTED',
          `Deletion of ${view.cluster.name} requested by ${(actor as { email: string }).email}; waiting for the approver.`,
          actor,
          tx,
        );
        const mailId = await mail.enqueue(
          approvalOtpMail(approver, otp, view.cluster.name, view.subscriptionName, (actor as { email: string }).email),
          tx,
          // Counted and prioritised like every OTP mail.
          'otp',
        );
        return { operationId, mailId };
      });
      await mail.dispatch(mailId, 'otp');
      return { operationId };
    },

    async resendOperationOtp(caller: Caller, operationId: string): Promise<OperationResult> {
      const operation = await repo.findOperation(caller.accountId, operationId);
      if (!operation) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.operationNotFound);
      if (operation.approvedAt) throw conflict('OPERATION_ALREADY_USED', CLUSTER_MESSAGES.operationUsed);
      const now = clock.now();
      if (operation.expiresAt <= now) throw businessRule('OPERATION_EXPIRED', CLUSTER_MESSAGES.operationExpired);
      await auth.approvalOtp.assertNotLocked(typerKey(caller.userId));
      const withinHour = now.getTime() - operation.firstSentAt.getTime() < HOUR;
      if (withinHour && operation.sendCount >= OTP.maxSendsPerHour) throw tooManyRequests('OTP_RESEND_LIMIT', MESSAGES.otpResendLimit);
      const view = await requireCluster(caller, operation.clusterId);
      const otp = auth.approvalOtp.generate();
      const requester = (await repo.userEmail(operation.requestedByUserId)) ?? '';
      const mailId = await db.transaction(async (tx) => {
        await repo.updateOperation(
          operation.id,
          {
            otpHash: auth.approvalOtp.hash(approvalKey(operation.approverEmail), otp),
            expiresAt: new Date(now.getTime() + OTP.validMinutes * MINUTE),
            sendCount: withinHour ? operation.sendCount + 1 : 1,
            firstSentAt: withinHour ? operation.firstSentAt : now,
          },
          tx,
        );
        return mail.enqueue(approvalOtpMail(operation.approverEmail, otp, view.cluster.name, view.subscriptionName, requester), tx, 'otp');
      });
      await mail.dispatch(mailId, 'otp');
      return { operation_id: operation.id, status: 'PENDING_APPROVAL', message: CLUSTER_MESSAGES.otpResent };
    },

    /**
     * The approver's OTP: single use, expires with the OTP. Wrong ones count towards the daily lock of the person typing
     * them (an admin's guesses never lock the owner out of approving), and the lock check, the comparison, the count
     * and the approval are one step, whichever process each attempt reaches.
     */
    async authenticateOperation(caller: Caller, operationId: string, otp: string): Promise<OperationResult> {
      const operation = await repo.findOperation(caller.accountId, operationId);
      if (!operation) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.operationNotFound);
      if (operation.approvedAt) throw conflict('OPERATION_ALREADY_USED', CLUSTER_MESSAGES.operationUsed);
      if (operation.expiresAt <= clock.now()) throw businessRule('OPERATION_EXPIRED', CLUSTER_MESSAGES.operationExpired);

      const actor = await actorOf(caller);
      const names = await auth.approvalOtp.attempt<{ cluster: string; subscription: string }>(typerKey(caller.userId), async (tx) => {
        if (!auth.approvalOtp.matches(approvalKey(operation.approverEmail), otp, operation.otpHash)) return { matched: false };
        if (!(await repo.approveOperation(operation.id, clock.now(), tx)))
          throw conflict('OPERATION_ALREADY_USED', CLUSTER_MESSAGES.operationUsed);
        const row = await repo.lockForAccount(caller.accountId, operation.clusterId, tx);
        if (!row) throw notFoundCluster();
        if (!canClusterDo('delete', row.status as ClusterStatus))
          throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.deleteNotAllowed);
        await repo.update(row.id, { status: 'DELETING', statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
        await audit(
          row.id,
          'CLUSTER_DELETE_APPROVED',
          `Deletion of ${row.name} approved by ${operation.approverEmail}; started by ${(actor as { email: string }).email}.`,
          actor,
          tx,
        );
        const view = await repo.findForAccount(caller.accountId, row.id, {}, tx);
        return { matched: true, value: { cluster: row.name, subscription: view?.subscriptionName ?? '' } };
      });
      await follow(operation.clusterId);
      return { operation_id: operation.id, status: 'APPROVED', message: clusterDeletionStartedMessage(names.cluster, names.subscription) };
    },

    /** A deletion staff ask for (admin four-eyes action): the customer's cluster, refused unless it may be deleted now. */
    async staffDeletionTarget(accountId: string, id: string): Promise<{ name: string; subscriptionName: string }> {
      const view = await repo.findForAccount(accountId, id, {});
      if (!view) throw notFoundCluster();
      if (!canClusterDo('delete', view.cluster.status as ClusterStatus))
        throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.deleteNotAllowed);
      return { name: view.cluster.name, subscriptionName: view.subscriptionName };
    },

    /**
     * Starts a deletion one staff member asked for and another approved, inside the caller's transaction (the
     * approval and the deletion commit together); the audit log tells the customer staff did it. Call
     * followDeletion once the transaction commits.
     */
    async deleteByStaff(accountId: string, id: string, who: { userId: string; email: string; approvedBy: string }, tx: Tx) {
      const row = await repo.lockForAccount(accountId, id, tx);
      if (!row) throw notFoundCluster();
      if (!canClusterDo('delete', row.status as ClusterStatus)) throw conflict('CLUSTER_STATE_CONFLICT', CLUSTER_MESSAGES.deleteNotAllowed);
      await repo.update(row.id, { status: 'DELETING', statusUpdatedAt: clock.now(), cloudCommandPending: true }, tx);
      await audit(
        row.id,
        'CLUSTER_DELETE_APPROVED',
        `Deletion of ${row.name} by Kumo Cloud staff (${who.email}), approved by ${who.approvedBy}.`,
        { userId: who.userId, email: who.email },
        tx,
      );
      return { name: row.name };
    },

    followDeletion: (id: string) => follow(id),

    async operationStatus(caller: Caller, operationId: string): Promise<OperationStatusResponse> {
      const operation = await repo.findOperation(caller.accountId, operationId);
      if (!operation) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.operationNotFound);
      const view = await requireCluster(caller, operation.clusterId, { includeDeleted: true });
      await refreshQuietly([view]);
      const fresh = (await repo.findForAccount(caller.accountId, operation.clusterId, { includeDeleted: true }))!;
      return {
        operation_id: operation.id,
        action_name: operation.actionName as OperationStatusResponse['action_name'],
        status: operation.approvedAt ? 'APPROVED' : operation.expiresAt <= clock.now() ? 'EXPIRED' : 'PENDING_APPROVAL',
        deployment_id: operation.clusterId,
        cluster_name: fresh.cluster.name,
        subscription_name: fresh.subscriptionName,
        cluster_status: fresh.cluster.status as ClusterStatus,
        expires_at: operation.expiresAt.toISOString(),
      };
    },

    async auditLogs(caller: Caller, id: string, page: number, size: number, startDate?: string): Promise<AuditLogResponse> {
      const view = await requireCluster(caller, id, { includeDeleted: true });
      const { from, to } = monthOf(startDate, clock.now());
      const { rows, total } = await repo.auditPage(view.cluster.id, from, to, page, size);
      return {
        page_content: {
          content: rows.map((row) => ({
            audit_id: row.id,
            date: row.createdAt.toISOString(),
            event: row.event as AuditEvent,
            description: row.description,
            caused_by: row.actorLabel,
          })),
          totalPages: Math.ceil(total / size),
        },
        start_date: from.toISOString(),
        end_date: to.toISOString(),
      };
    },

    /** A page of the cluster's timeline: up to TIMELINE_DAYS_PER_PAGE days ending before `before` (or with today). */
    async timeline(caller: Caller, id: string, before?: string): Promise<TimelineResponse> {
      const { cluster } = await requireCluster(caller, id, { includeDeleted: true });
      const { from, to, nextBefore } = timelineWindow(cluster.createdAt, clock.now(), before);
      const day = (at: Date) => at.toISOString().slice(0, 10);
      const [rows, charges] = await Promise.all([
        repo.timelineEvents(cluster.id, from, to),
        deps.chargeDays(cluster.id, day(from), day(to)),
      ]);
      const events = rows.map((row) => ({
        at: row.createdAt,
        event: row.event as AuditEvent,
        description: row.description,
        causedBy: row.actorLabel,
      }));
      return {
        deployment_id: cluster.id,
        days: buildTimeline({ events, charges, deploying: cluster.status === 'DEPLOYING', from, to }),
        next_before: nextBefore,
      };
    },

    async getSchedule(caller: Caller, id: string): Promise<ScheduleResponse> {
      const view = await requireCluster(caller, id);
      const row = await repo.findSchedule(view.cluster.id);
      return presentSchedule(view.cluster.id, row && { enabled: row.enabled, timeZone: row.timeZone, rules: row.rules as ScheduleRule[] });
    },

    async putSchedule(
      caller: Caller,
      id: string,
      request: PutScheduleRequest,
      headerTimeZone: string | undefined,
    ): Promise<ScheduleResponse> {
      const view = await requireCluster(caller, id);
      const timeZone = request.time_zone ?? headerTimeZone ?? DEFAULT_TIME_ZONE;
      if (!isValidTimeZone(timeZone))
        throw badRequest('VALIDATION_FAILED', CLUSTER_MESSAGES.scheduleTimeZoneInvalid, {
          time_zone: CLUSTER_MESSAGES.scheduleTimeZoneInvalid,
        });
      const now = clock.now();
      const rules = sortRules(request.rules);
      const actor = await actorOf(caller);
      await db.transaction(async (tx) => {
        await repo.upsertSchedule(
          { clusterId: view.cluster.id, enabled: request.enabled, timeZone, rules, lastCheckedAt: now, updatedAt: now },
          tx,
        );
        const summary = request.enabled
          ? `${rules.map((rule) => `${rule.action} ${rule.day} ${rule.time}`).join(', ') || 'no rules'} (${timeZone})`
          : 'disabled';
        await audit(
          view.cluster.id,
          'CLUSTER_SCHEDULE_CHANGED',
          `Schedule of ${view.cluster.name} set by ${(actor as { email: string }).email}: ${summary}.`,
          actor,
          tx,
        );
      });
      return presentSchedule(view.cluster.id, { enabled: request.enabled, timeZone, rules });
    },

    /** The minute job: every busy cluster is looked at (this is what resumes work after a restart), then the schedules. */
    async sweep(): Promise<void> {
      for (const id of await repo.busyIds()) {
        try {
          // No new follow chain here: the queued ones survive restarts, and this sweep runs every minute anyway.
          await reconcile(id);
        } catch (error) {
          logger.warn({ err: error, clusterId: id }, 'cluster sweep failed for one cluster');
        }
      }
      await runSchedules();
    },

    /** The follow job: look again, and again later while the cluster is busy. */
    async followJob(clusterId: string): Promise<void> {
      if (await reconcile(clusterId)) await follow(clusterId, true);
    },
  };
}
export type ClustersService = ReturnType<typeof createClustersService>;

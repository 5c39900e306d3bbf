/**
 * The clusters module's service, put together from its use cases: creation (create.ts), the lifecycle driven by
 * what the cloud reports (reconcile.ts), start and stop (power.ts), deletion approved with the account owner's OTP
 * (deletion.ts), the weekly schedule (cluster-schedule.ts), who may do what in each cluster's manager (access.ts),
 * who may reach it at all (network-access.ts),
 * how clusters are shown (presentation.ts) and their history (history.ts). Each part takes only what it uses.
 *
 * State changes the customer asks for are written first (status, a pending cloud command, an audit entry) and then
 * carried to the cloud by reconcile(), which only the follow job and the minute sweep call: reads show the rows.
 */
import type { ClusterStatus } from '@kumo/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { CloudProvisioner } from '../../adapters/cloud/index.js';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { AuthService } from '../auth/index.js';
import type { MailService } from '../mail/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { createClusterAccess } from './access.js';
import { createClusterRecords, createFollow } from './cluster-records.js';
import { createClusterSchedules } from './cluster-schedule.js';
import type { ClustersRepository } from './clusters.repository.js';
import { createClusterCreation } from './create.js';
import { createClusterDeletion } from './deletion.js';
import { createClusterHistory } from './history.js';
import { createClusterPower } from './power.js';
import { createClusterNetworkAccess } from './network-access.js';
import { createClusterPresentation } from './presentation.js';
import { createReconciler } from './reconcile.js';
import { createClusterResize } from './resize.js';
import type { Sealer } from '../../lib/crypto.js';
import { createClusterSqlAccess } from './sql-access.js';
import { createSystemPower } from './system-power.js';

export { CLUSTER_JOBS, type Actor, type AuditedEntry, type AuditListener, type Caller } from './cluster-records.js';

export function createClustersService(deps: {
  db: Database;
  repository: ClustersRepository;
  cloud: CloudProvisioner;
  subscriptions: SubscriptionsService;
  auth: AuthService;
  mail: MailService;
  jobs: JobQueue;
  clock: Clock;
  /** Seals the admin password while the deployment job carries it to the cloud. */
  passwordSealer: Sealer;
  /** Signs the manager and Web Portal tickets. */
  managerTicketKey: string;
  logger: FastifyBaseLogger;
  /** How often a busy cluster is looked at again, in real seconds. */
  followIntervalSeconds: number;
}) {
  const { db, repository, cloud, subscriptions, auth, mail, jobs, clock, passwordSealer, managerTicketKey, logger } = deps;
  const records = createClusterRecords({ repository, clock });
  const follow = createFollow({ jobs, logger, followIntervalSeconds: deps.followIntervalSeconds });
  const network = createClusterNetworkAccess({ db, repository, cloud, records, clock, logger });
  const { reconcile } = createReconciler({ db, repository, cloud, subscriptions, records, network, clock, passwordSealer, logger });
  const power = createClusterPower({ db, repository, subscriptions, records, follow, clock });
  const schedules = createClusterSchedules({ db, repository, records, power, follow, clock });
  const { runSchedules } = schedules;
  const sqlAccess = createClusterSqlAccess({ repository, records, cloud, passwordSealer });
  const resizing = createClusterResize({ db, repository, records, power, follow });

  return {
    reconcile,
    /** For the subscriptions list (its ClusterDirectory). */
    liveClustersOf: (subscriptionIds: string[], tx?: Tx) => repository.liveOfSubscriptions(subscriptionIds, tx),
    /**
     * Every cluster of the account that is not deleted, with its subscription's name, whether or not that subscription
     * is still live: what the overdue guard starts from, so no running cluster escapes it.
     */
    async notDeletedOf(accountId: string) {
      return (await repository.listForAccount(accountId)).map((view) => ({
        id: view.cluster.id,
        name: view.cluster.name,
        status: view.cluster.status as ClusterStatus,
        subscriptionId: view.cluster.subscriptionId,
        subscriptionName: view.subscriptionName,
      }));
    },

    ...createClusterCreation({ db, repository, subscriptions, records, power, network, follow, clock, passwordSealer }),
    ...createClusterPresentation({ repository, records, sqlEndpointOf: sqlAccess.sqlEndpointOf }),
    start: power.start,
    stop: power.stop,
    stopForOverdue: power.stopForOverdue,
    resize: resizing.resize,
    /** Lets the audit log tell a resize's hourly cost before and after (the wiring attaches metering's prices). */
    attachShapePricer: resizing.attachShapePricer,
    /** Starts and stops for another module's rule (idle auto-stop, restart when funded), under the row lock. */
    ...createSystemPower({ db, repository, power, records, follow, clock }),
    /** Adds a rule to starting a cluster, by a person or the schedule (the wiring attaches the budgets' hard cap). */
    attachStartGate: power.attachStartGate,
    /** Adds a step told of every audit entry, in its transaction (the wiring attaches the account's webhooks). */
    attachAuditListener: records.attachAuditListener,
    ...createClusterDeletion({ db, repository, auth, mail, records, follow, clock }),
    ...createClusterHistory({ repository, records, clock }),
    runSchedules,
    getSchedule: schedules.getSchedule,
    putSchedule: schedules.putSchedule,
    ...createClusterAccess({ db, repository, records, clock, managerTicketKey }),
    ...sqlAccess,
    getNetworkAccess: network.getNetworkAccess,
    putNetworkAccess: network.putNetworkAccess,
    /** Whether the cluster answers this address (its network access list): every door of the cluster asks. */
    allowsAddress: network.allowsAddress,

    /**
     * The minute job: every busy cluster is looked at (this is what resumes work after a restart), then the schedules,
     * then the network access lists the cloud's firewall has not caught up with.
     */
    async sweep(): Promise<void> {
      for (const id of await repository.busyIds()) {
        try {
          // No new follow chain here: the queued ones survive restarts, and this sweep runs every minute anyway.
          await reconcile(id);
        } catch (error) {
          logger.warn({ err: error, clusterId: id }, 'cluster sweep failed for one cluster');
        }
      }
      await runSchedules();
      await network.carryPendingNetworkAccess();
    },

    /** The follow job: look again, and again later while the cluster is busy. */
    async followJob(clusterId: string): Promise<void> {
      if (await reconcile(clusterId)) await follow(clusterId, true);
    },
  };
}
export type ClustersService = ReturnType<typeof createClustersService>;

/**
 * What staff see of one customer (spec sections 2, 3 and 7, Admin): read through the owning modules' public
 * faces, always scoped to the customer's own account, so another customer's subscription or cluster is a 404.
 */
import {
  ADMIN_MESSAGES,
  centsToAmount,
  sizeSpecOf,
  isClusterGone,
  type AdminAccountUsersPage,
  type AdminClusterPage,
  type AdminCostAnalysis,
  type CumulativeCost,
  type RateCard,
  type RateHistoryPage,
  type AdminSubscriptionsPage,
  type ClusterDetailsResponse,
  type CustomerDetail,
  type EaVersionActionResponse,
  type KmAccessCheck,
  type KmUserRole,
  type ManageKmAccessRequest,
  type ManageKmAccessResponse,
  type ManagerSsoResponse,
  type TransactionPage,
} from '@kumo/contract';
import { MANAGER_TICKET_SECONDS, generateClusterTemplate, withManagerTicket } from '../../adapters/cloud/index.js';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import { businessRule, notFound } from '../../errors.js';
import { toTransactionPageWire, type BillingService } from '../billing/index.js';
import type { ClustersService } from '../clusters/index.js';
import type { AccountRecords, StaffActionLog } from '../auth/index.js';
import type { Ledger } from '../ledger/index.js';
import type { MeteringService } from '../metering/index.js';
import { toSubscriptionWire, type SubscriptionsService } from '../subscriptions/index.js';
import type { UsersService } from '../users/index.js';
import type { KmAccessRepository } from './operations.repository.js';

const page = <T>(rows: T[], index: number, size: number) => ({
  content: rows.slice(index * size, (index + 1) * size),
  totalPages: Math.ceil(rows.length / size),
});

export function createCustomerViews(deps: {
  db: Database;
  repository: KmAccessRepository;
  /** The auth module's writes to the customer's account (its preview release and manager access settings). */
  accounts: AccountRecords;
  /** What staff change or open here goes into the customer's Staff access trail, naming them. */
  staffActions: StaffActionLog;
  subscriptions: SubscriptionsService;
  billing: BillingService;
  clusters: ClustersService;
  ledger: Ledger;
  users: UsersService;
  metering: MeteringService;
  clock: Clock;
  /** Signs the Open Manager tickets. */
  managerTicketKey: string;
}) {
  const { db, repository, accounts, staffActions, subscriptions, billing, clusters, ledger, users, metering, clock } = deps;

  async function customerOf(userId: string) {
    const row = await repository.customerDetail(userId);
    if (!row) throw notFound('NOT_FOUND', ADMIN_MESSAGES.customerNotFound);
    return row;
  }

  /** The users module lists an account's people for a session of that account; staff read it as the owner would. */
  const ownerClaims = (customer: { userId: string; accountId: string }) => ({
    userId: customer.userId,
    sessionId: '',
    accountId: customer.accountId,
    role: 'ACCOUNT_OWNER' as const,
  });

  async function liveClusters(accountId: string) {
    return (await clusters.view(accountId)).flatMap((group) => group.clusters).filter((cluster) => !isClusterGone(cluster.status));
  }

  async function kmCheck(userId: string): Promise<KmAccessCheck> {
    const customer = await customerOf(userId);
    const offline = (await liveClusters(customer.accountId)).some((cluster) => cluster.status !== 'ONLINE');
    return {
      km_access_allowed: !offline,
      admin_access: customer.kmAdminAccess,
      km_user_role: customer.kmUserRole as KmUserRole,
      message: offline ? ADMIN_MESSAGES.kmAccessClustersOffline : null,
    };
  }

  return {
    customerOf,

    async detail(userId: string): Promise<CustomerDetail> {
      const customer = await customerOf(userId);
      const [owned, limit, people] = await Promise.all([
        subscriptions.list(customer.accountId),
        ledger.overdueLimit(customer.accountId),
        users.list(ownerClaims(customer)),
      ]);
      const balanceCents = owned.reduce((sum, s) => sum + s.balanceCents, 0);
      return {
        user_id: customer.userId,
        account_id: customer.accountId,
        user_name: customer.name,
        email_id: customer.email,
        created_at: customer.createdAt.toISOString(),
        total_subscription_balance: centsToAmount(balanceCents),
        outstanding_limit: centsToAmount(limit),
        admin_access: customer.kmAdminAccess,
        km_user_role: customer.kmUserRole as KmUserRole,
        overview: {
          free_units: (await metering.rateCard(customer.accountId)).free_units,
          kumo_ea_version_enabled: customer.kumoEaVersionEnabled,
        },
        added_users: people
          .filter((person) => person.user_id !== customer.userId)
          .map(({ user_id, user_name, email_id, role, added_on }) => ({ user_id, user_name, email_id, role, added_on })),
      };
    },

    async accountUsers(userId: string, index: number, size: number): Promise<AdminAccountUsersPage> {
      const customer = await customerOf(userId);
      const people = (await users.list(ownerClaims(customer))).filter((person) => person.user_id !== customer.userId);
      return page(people, index, size);
    },

    async subscriptions(userId: string, index: number, size: number): Promise<AdminSubscriptionsPage> {
      const customer = await customerOf(userId);
      return page((await subscriptions.listWithMonthSpend(customer.accountId)).map(toSubscriptionWire), index, size);
    },

    async transactions(userId: string, subscriptionId: string, index: number, size: number): Promise<TransactionPage> {
      const customer = await customerOf(userId);
      return toTransactionPageWire(await billing.transactions(customer.accountId, subscriptionId, index, size));
    },

    async receipt(userId: string, transactionId: string, timeZone?: string) {
      const customer = await customerOf(userId);
      return billing.receipt(customer.accountId, transactionId, timeZone);
    },

    /** The customer's clusters, newest first; of one of their subscriptions when `subscriptionId` names it. */
    async clusters(userId: string, index: number, size: number, subscriptionId?: string): Promise<AdminClusterPage> {
      const customer = await customerOf(userId);
      if (subscriptionId) await subscriptions.requireOwned(customer.accountId, subscriptionId);
      const all = (await clusters.view(customer.accountId))
        .flatMap((group) => group.clusters)
        .filter((cluster) => !subscriptionId || cluster.subscription_id === subscriptionId);
      all.sort((a, b) => b.created_at.localeCompare(a.created_at));
      return page(all, index, size);
    },

    async nodeDetails(userId: string, deploymentId: string, staffUserId: string): Promise<ClusterDetailsResponse> {
      const customer = await customerOf(userId);
      return clusters.details({ accountId: customer.accountId, userId: staffUserId }, deploymentId, 'CURRENT');
    },

    async setPreview(userId: string, enable: boolean, staffUserId: string): Promise<EaVersionActionResponse> {
      const customer = await customerOf(userId);
      await db.transaction(async (tx) => {
        await accounts.setPreviewEnabled(customer.accountId, enable, tx);
        const did = enable ? 'offered the preview release' : 'stopped offering the preview release';
        await staffActions.record({ accountId: customer.accountId, staffUserId, event: 'PREVIEW_RELEASE_CHANGED', did }, tx);
      });
      return { kumo_ea_version_enabled: enable };
    },

    async currentRates(userId: string): Promise<RateCard> {
      const customer = await customerOf(userId);
      return metering.rateCard(customer.accountId);
    },

    /** Each period between rate changes, newest first, keyed by start_end ("YYYY-MM-DD_YYYY-MM-DD", open end "YYYY-MM-DD_"). */
    async rateHistory(userId: string, index: number, size: number): Promise<RateHistoryPage> {
      const customer = await customerOf(userId);
      const changes = await metering.rateChanges(customer.accountId);
      const starts = [...new Set(changes.map((row) => row.effectiveFrom.getTime()))].sort((a, b) => b - a);
      const periods = [];
      for (const [i, start] of starts.entries()) {
        const end = i === 0 ? null : new Date(starts[i - 1]!);
        const rates = await metering.ratesAt(customer.accountId, new Date(start));
        const day = (d: Date) => d.toISOString().slice(0, 10);
        periods.push({
          start_end: `${day(new Date(start))}_${end ? day(end) : ''}`,
          start_date: new Date(start).toISOString(),
          end_date: end?.toISOString() ?? null,
          rates: rates.map((r) => ({ dimension: r.dimension, rate: r.rateE4 / 10_000, free_trial: r.freeUnits })),
        });
      }
      return page(periods, index, size);
    },

    /** The current month per subscription, with the totals. */
    async costAnalysis(userId: string, index: number, size: number): Promise<AdminCostAnalysis> {
      const customer = await customerOf(userId);
      const rows = await metering.subscriptionOverview(customer.accountId);
      const sum = (pick: (row: (typeof rows)[number]) => number) => centsToAmount(rows.reduce((total, row) => total + pick(row), 0));
      const now = clock.now();
      return {
        start_date: rows[0]?.month.from.toISOString() ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
        end_date: rows[0]?.month.to.toISOString() ?? now.toISOString(),
        consumed_amount: sum((row) => row.consumedCents),
        forecasted_amount: sum((row) => row.forecastCents),
        ...page(
          rows.map((row) => ({
            subscription_id: row.subscriptionId,
            subscription_name: row.subscriptionName,
            consumed_amount: centsToAmount(row.consumedCents),
            forecasted_amount: centsToAmount(row.forecastCents),
            balance: centsToAmount(row.balanceCents),
          })),
          index,
          size,
        ),
      };
    },

    /** The last 12 months of every subscription added together, oldest first. */
    async cumulativeCost(userId: string): Promise<CumulativeCost> {
      const customer = await customerOf(userId);
      const totals = new Map<string, number>();
      for (const s of await subscriptions.list(customer.accountId)) {
        const analysis = await metering.subscriptionAnalysis(customer.accountId, s.id);
        for (const month of analysis.lastTwelveMonths) totals.set(month.month, (totals.get(month.month) ?? 0) + month.consumedCents);
      }
      return [...totals.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([date, cents]) => ({ date, monthly_consumed_amount: centsToAmount(cents) }));
    },

    /** The CloudFormation template of the customer's cluster, from its recorded settings (the password stays a parameter). */
    async clusterTemplate(userId: string, deploymentId: string, staffUserId: string) {
      const customer = await customerOf(userId);
      const cluster = await clusters.details({ accountId: customer.accountId, userId: staffUserId }, deploymentId, 'DEPLOYMENT');
      const template = generateClusterTemplate({
        deploymentId: cluster.deployment_id,
        clusterName: cluster.cluster_name,
        region: cluster.region,
        backupRegion: cluster.backup_region,
        cidr: cluster.cidr,
        kumoVersion: cluster.kumo_version,
        queryEngines: { instanceType: sizeSpecOf(cluster.size).instance_type, count: cluster.query_engines },
      });
      const did = `downloaded the deployment template of cluster ${cluster.cluster_name}`;
      await staffActions.record({ accountId: customer.accountId, staffUserId, event: 'CLUSTER_TEMPLATE_DOWNLOADED', did });
      return { filename: `${cluster.stack_name || cluster.deployment_id}.template.json`, body: JSON.stringify(template, null, 2) };
    },

    /**
     * Open Manager: only for an ONLINE cluster of a customer who lets the provider in (admin_access). The address
     * carries a signed, 60-second ticket naming the cluster, the staff member and the provider's level (Full admin).
     */
    async managerSso(userId: string, deploymentId: string, staffUserId: string): Promise<ManagerSsoResponse> {
      const customer = await customerOf(userId);
      const cluster = await clusters.details({ accountId: customer.accountId, userId: staffUserId }, deploymentId, 'CURRENT');
      if (!customer.kmAdminAccess || cluster.status !== 'ONLINE' || !cluster.kumo_manager_url)
        throw businessRule('CLUSTER_STATE_CONFLICT', ADMIN_MESSAGES.managerUnavailable);
      const expiresAt = new Date(clock.now().getTime() + MANAGER_TICKET_SECONDS * 1000);
      const email = (await repository.userEmail(staffUserId)) ?? staffUserId;
      // The provider's access administers the manager (manage KM access rights: administrative access on).
      const url = withManagerTicket(cluster.kumo_manager_url, deps.managerTicketKey, {
        deploymentId,
        page: 'manager',
        holder: { kind: 'staff', userId: staffUserId, email },
        level: 'FULL_ADMIN',
        expiresAt,
      });
      const did = `opened the Kumo Manager of cluster ${cluster.cluster_name}`;
      await staffActions.record({ accountId: customer.accountId, staffUserId, event: 'MANAGER_OPENED', did });
      return { url, expires_at: expiresAt.toISOString() };
    },

    checkKmAccess: kmCheck,

    /** Spec sections 4 and 5: every cluster online, never back from administrative to standard. */
    async manageKmAccess(userId: string, request: ManageKmAccessRequest, staffUserId: string): Promise<ManageKmAccessResponse> {
      const check = await kmCheck(userId);
      if (!check.km_access_allowed) throw businessRule('CLUSTER_STATE_CONFLICT', ADMIN_MESSAGES.kmAccessClustersOffline);
      if (check.km_user_role === 'Administrator' && request.km_user_role !== 'Administrator')
        throw businessRule('VALIDATION_FAILED', ADMIN_MESSAGES.kmAccessRevert);
      if (check.admin_access === request.admin_access && check.km_user_role === request.km_user_role)
        throw businessRule('VALIDATION_FAILED', ADMIN_MESSAGES.kmAccessUnchanged);
      const customer = await customerOf(userId);
      const access = request.admin_access ? 'on' : 'off';
      const did = `changed the Kumo Manager access rights: administrative access ${access}, manager role ${request.km_user_role}`;
      await db.transaction(async (tx) => {
        await accounts.setKmAccess(customer.accountId, request.admin_access, request.km_user_role, tx);
        await staffActions.record({ accountId: customer.accountId, staffUserId, event: 'KM_ACCESS_CHANGED', did }, tx);
      });
      return { admin_access: request.admin_access, km_user_role: request.km_user_role, message: 'Access rights updated.' };
    },
  };
}
export type CustomerViews = ReturnType<typeof createCustomerViews>;

import { AUTO_STOP_LIMITS } from '@kumo/contract';
import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_SIM_TIME_SCALE, createCloud, createSimTickets, stackNameFor, type CloudConfig } from './adapters/cloud/index.js';
import type { IdentityProvider } from './adapters/identity/identity-provider.js';
import type { MailTransport } from './adapters/mail/mail-transport.js';
import { createPayments, type PaymentsConfig } from './adapters/payments/index.js';
import type { Clock } from './clock.js';
import type { Database } from './db/client.js';
import type { JobQueue } from './jobs/job-queue.js';
import type { JobDefinition } from './jobs/job-queue.js';
import { createAdminService } from './modules/admin/index.js';
import { autoTopUpJobs, createAutoTopUpService } from './modules/auto-top-up/index.js';
import { createApiTokensService, isApiTokenSecret } from './modules/api-tokens/index.js';
import { createAccountRecords, createAuthService, createStaffActionLog } from './modules/auth/index.js';
import { billingJobs, createBillingService } from './modules/billing/index.js';
import { createBudgetsService } from './modules/budgets/index.js';
import { clusterSqlJobs, createClusterSqlService } from './modules/cluster-sql/index.js';
import { autoStopJobs, createAutoStopService, recordingSystemStops } from './modules/cluster-auto-stop/index.js';
import { createClusterTimeline } from './modules/cluster-timeline/index.js';
import { clusterJobs, createClustersService } from './modules/clusters/index.js';
import { createLedger, ledgerJobs } from './modules/ledger/index.js';
import { createMailService, mailJobs, type MailLimits } from './modules/mail/index.js';
import { createNoticesService } from './modules/notices/index.js';
import { REAL_HOUR_MS, createMeteringService, meteringJobs } from './modules/metering/index.js';
import { createStaffSsoService } from './modules/staff-sso/index.js';
import { createSubscriptionBalances, createSubscriptionsService } from './modules/subscriptions/index.js';
import { createXsrf } from './http/xsrf.js';
import { createIdempotencyStore } from './http/idempotency-store.js';
import { deriveServerKeys } from './lib/keys.js';
import type { TokenVerifier } from './http/auth-guard.js';
import { createUsersService } from './modules/users/index.js';
import { createWebhooksService, webhookJobs } from './modules/webhooks/index.js';

export interface Infrastructure {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  mailTransport: MailTransport;
  mailFrom: string;
  authSecret: string;
  publicUrl: string;
  logger: FastifyBaseLogger;
  /** Proves staff identities for single sign-on; absent when it is not available. */
  identity?: IdentityProvider;
  /** The payment provider: Stripe when its keys are given, the sandbox checkout otherwise. */
  payments?: PaymentsConfig;
  /** Caps on OTP and invitation mail, and how many mails are delivered at once. */
  mailLimits?: Partial<MailLimits>;
  /** The cloud clusters run in: the simulated cloud unless CLOUD_DRIVER says aws. */
  cloud?: CloudConfig;
  /** APPROVER_EMAILS: the staff who approve sensitive admin actions; every other SYSTEM_ADMIN when absent. */
  approverEmails?: string[];
  /** WEBHOOK_ALLOW_PRIVATE: webhook endpoints may be http:// and on loopback, private or link-local addresses. */
  webhookAllowPrivate?: boolean;
  /** AUTO_STOP_DEFAULT_MINUTES: a new cluster's idle minutes before auto-stop, null for off; 60 when absent. */
  autoStopDefaultMinutes?: number | null;
}

/** Wires every module's service from the outside systems it needs. */
export function createServices(infra: Infrastructure) {
  const { db, clock, logger } = infra;
  // One key per purpose, derived from the master: no module holds the master or another's key.
  const keys = deriveServerKeys(infra.authSecret);
  const mail = createMailService({
    db,
    transport: infra.mailTransport,
    jobs: infra.jobs,
    clock,
    from: infra.mailFrom,
    logger,
    limits: infra.mailLimits,
    sealer: keys.mail,
  });
  const auth = createAuthService({
    db,
    mail,
    clock,
    accessTokenKey: keys.text('access-tokens'),
    hasher: keys.tokenHashes,
  });
  // Personal API tokens speak for their creator: every guarded route takes either kind of bearer token.
  const apiTokens = createApiTokensService({ db, clock, hasher: keys.tokenHashes });
  const verifyBearer: TokenVerifier = (token, client) =>
    isApiTokenSecret(token) ? apiTokens.verify(token, client) : auth.verifyAccessToken(token);
  // What a customer is mailed is also a notice in the bell: the modules that mail write it in the same transaction.
  const notices = createNoticesService({ db, clock });
  // The account's events go out to its webhooks from what is already recorded: the notices written (budget alerts,
  // runway, top-ups, expiring credits) and the clusters' audit entries; neither module knows of webhooks.
  const webhooks = createWebhooksService({
    db,
    jobs: infra.jobs,
    clock,
    sealer: keys.webhookSecrets,
    logger,
    allowPrivate: infra.webhookAllowPrivate ?? false,
  });
  notices.attachListener((draft, tx) => webhooks.noticeWritten(draft, tx));
  // People, accounts and memberships are the auth module's; the users and admin modules change them through it.
  const accounts = createAccountRecords(db);
  // Money: the ledger is the only writer of balances; subscriptions and billing reach it through its interface.
  const ledger = createLedger({ db, clock, balances: createSubscriptionBalances(db) });
  const subscriptions = createSubscriptionsService({ db, ledger, clock });
  const payments = createPayments(infra.payments ?? {}, { db, clock, jobs: infra.jobs, publicUrl: infra.publicUrl });
  const billing = createBillingService({
    db,
    subscriptions,
    ledger,
    gateway: payments.gateway,
    clock,
    publicUrl: infra.publicUrl,
    logger,
    checkoutLifetimeMs: payments.checkoutLifetimeMs,
  });
  const users = createUsersService({
    db,
    auth,
    accounts,
    mail,
    subscriptions,
    apiTokens,
    clock,
    hasher: keys.tokenHashes,
    publicUrl: infra.publicUrl,
  });
  const cloud = createCloud(infra.cloud ?? {}, { db, clock, publicUrl: infra.publicUrl });
  const clusters = createClustersService({
    db,
    cloud: cloud.provisioner,
    subscriptions,
    auth,
    mail,
    jobs: infra.jobs,
    clock,
    passwordSealer: keys.clusterPasswords,
    managerTicketKey: keys.text('manager-tickets'),
    logger,
    // The simulated cloud moves SIM_TIME_SCALE times faster, so it is looked at more often.
    followIntervalSeconds: cloud.simulated ? 2 : 15,
  });
  clusters.attachAuditListener((entry, tx) => webhooks.clusterAudited(entry, tx));
  subscriptions.attachClusterDirectory(clusters.liveClustersOf);
  // The account's audit export holds its clusters' events beside the staff trail the auth module keeps.
  auth.attachClusterEvents(clusters.accountClusterEvents);
  // A billable hour lasts an hour with AWS; the simulated cloud's hours pass SIM_TIME_SCALE times faster.
  const meteringHourMs = cloud.simulated
    ? Math.max(1, Math.round(REAL_HOUR_MS / (infra.cloud?.simTimeScale ?? DEFAULT_SIM_TIME_SCALE)))
    : REAL_HOUR_MS;
  // Auto-stop records each cluster the overdue guard and the budgets' hard cap stop, in the stop's transaction, so
  // restart when funded can start it again; metering and budgets get the recording stop and know nothing of it.
  const recordStops = recordingSystemStops(db, clock);
  const metering = createMeteringService({
    db,
    ledger,
    subscriptions,
    clusters: { ...clusters, stopForOverdue: recordStops(clusters.stopForOverdue, 'OVERDUE') },
    auth,
    mail,
    notices,
    billing,
    clock,
    logger,
    hourMs: meteringHourMs,
    // The cloud counts each cluster's storage API requests; a cluster's stack is named after its id.
    storageRequests: cloud.provisioner.storageRequests
      ? (clusterId, windows) => cloud.provisioner.storageRequests!(stackNameFor(clusterId), windows)
      : undefined,
    secret: keys.text('report-sessions'),
    publicUrl: infra.publicUrl,
    sessionLive: auth.isSessionLive,
  });
  // The subscriptions list shows metering's spend and forecast of the month, the ones the budgets and the cost overview show.
  subscriptions.attachMonthSpends(metering.monthSpend);
  // A statement's usage by cluster and service is metering's export of the month, which adds up to the usage debits.
  billing.attachStatementUsage(metering.statementUsage);
  // Budgets read metering's spend and stop clusters; metering and clusters know nothing of them: the charging run's
  // after-charge step and the clusters' start gate are attached here.
  const budgets = createBudgetsService({
    db,
    subscriptions,
    metering,
    clusters: { ...clusters, stopForOverdue: recordStops(clusters.stopForOverdue, 'BUDGET_CAP') },
    mail,
    notices,
    clock,
    logger,
  });
  metering.attachAfterCharge(budgets.afterCharge);
  clusters.attachStartGate(budgets.startRefusal);
  clusters.attachShapePricer(
    async (accountId, subscriptionId, dr, cores) => (await metering.hourlyRatePreview(accountId, subscriptionId, dr, cores)).hourlyCents,
  );
  // Automatic top-up charges a saved card after the budgets' check, through billing's purchases so it has a receipt;
  // the provider's word on a saved card comes through billing's webhook.
  const autoTopUp = createAutoTopUpService({
    db,
    subscriptions,
    billing,
    gateway: payments.gateway,
    jobs: infra.jobs,
    mail,
    notices,
    clock,
    publicUrl: infra.publicUrl,
    logger,
  });
  metering.attachAfterCharge(autoTopUp.afterCharge);
  billing.attachSetupListener((event) => autoTopUp.cardSaved(event.subscriptionId));
  subscriptions.attachDeletionStep(autoTopUp.subscriptionDeleting);
  // Console queries go to the cloud's SQL endpoints; the simulated endpoint writes its history through this service.
  const clusterSql = createClusterSqlService({
    db,
    clusters,
    sql: cloud.provisioner.sql,
    clock,
    // The endpoint answers only the addresses of the cluster's network access list.
    allowsAddress: clusters.allowsAddress,
    logger,
  });
  // Idle auto-stop and restart when funded: told of the clusters' audit entries (a new cluster's default, a start
  // ending the system's stop); they stop and start clusters through the clusters' locked system power change.
  const autoStop = createAutoStopService({
    db,
    clusters,
    subscriptions,
    metering,
    notices,
    jobs: infra.jobs,
    clock,
    logger,
    defaultIdleMinutes: infra.autoStopDefaultMinutes === undefined ? AUTO_STOP_LIMITS.defaultIdleMinutes : infra.autoStopDefaultMinutes,
    // On AWS a cluster is idle only once its endpoint's activity has been read past the moment it fell due.
    activityKnownUntil: clusterSql.endpointActivityKnownUntil,
  });
  clusters.attachAuditListener((entry, tx) => autoStop.clusterAudited(entry, tx));
  // A cluster's timeline shows its events beside metering's charges: put together here, above both modules.
  const clusterTimeline = createClusterTimeline({ clusters, metering });
  const admin = createAdminService({
    db,
    auth,
    accounts,
    mail,
    ledger,
    subscriptions,
    clusters,
    billing,
    users,
    metering,
    clock,
    secret: keys.text('four-eyes'),
    managerTicketKey: keys.text('manager-tickets'),
    approverEmails: infra.approverEmails,
    // What staff do to a customer's account is in its Staff access trail, naming them.
    staffActions: createStaffActionLog({ db, clock }),
    notices,
  });
  const staffSso = createStaffSsoService({ identity: infra.identity, auth, clock });
  return {
    mail,
    notices,
    auth,
    apiTokens,
    verifyBearer,
    accounts,
    admin,
    users,
    staffSso,
    xsrf: createXsrf(keys.text('xsrf')),
    idempotency: createIdempotencyStore(db, clock),
    ledger,
    subscriptions,
    billing,
    paymentGateway: payments.gateway,
    sandboxCheckout: payments.sandbox,
    clusters,
    clusterTimeline,
    clusterSql,
    metering,
    budgets,
    autoTopUp,
    autoStop,
    webhooks,
    simulatedCloud: cloud.simulated,
    /** The simulated cloud's Kumo Manager and Web Portal pages, which check the tickets the portal signs. */
    simulatedPages: cloud.simulated
      ? {
          cloud: cloud.simulated,
          secret: keys.text('manager-tickets'),
          clock,
          tickets: createSimTickets(db, clock),
          allowsAddress: clusters.allowsAddress,
        }
      : undefined,
    /** The simulated clusters' SQL endpoints, which record into the clusters' query history. */
    simulatedSql: cloud.simulated ? { cloud: cloud.simulated, hooks: clusterSql.endpointHooks, clock } : undefined,
  };
}
export type Services = ReturnType<typeof createServices>;

/** Every module's background jobs, for the worker. */
export function serviceJobs(
  services: Pick<Services, 'mail' | 'ledger' | 'billing' | 'clusters' | 'clusterSql' | 'metering' | 'autoTopUp' | 'autoStop' | 'webhooks'>,
): JobDefinition[] {
  return [
    ...mailJobs(services.mail),
    ...ledgerJobs(services.ledger),
    ...billingJobs(services.billing),
    ...clusterJobs(services.clusters),
    ...meteringJobs(services.metering),
    ...autoTopUpJobs(services.autoTopUp),
    ...autoStopJobs(services.autoStop),
    ...clusterSqlJobs(services.clusterSql),
    ...webhookJobs(services.webhooks),
  ];
}

/**
 * The metering module's service, put together from its use cases: the charging run with the overdue guard and the
 * notices (charging-run.ts, overdue-guard.ts), the account's rates (metering-rates.ts), the cost reads
 * (cost-overview.ts, cost-analysis.ts) and the monthly report with the CSV exports' sources (report-pages.ts). Each
 * part takes only what it uses.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ConsumptionGranularity } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { AuthService } from '../auth/index.js';
import type { BillingService } from '../billing/index.js';
import type { ClustersService } from '../clusters/index.js';
import type { Ledger } from '../ledger/index.js';
import type { MailService } from '../mail/index.js';
import type { NoticesService } from '../notices/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { createChargingRun, type AfterCharge } from './charging-run.js';
import { createConsumptionExport } from './consumption-export.js';
import { createConsumptionExportRepository } from './consumption-export.repository.js';
import { createCostAnalysis } from './cost-analysis.js';
import { createCostOverview } from './cost-overview.js';
import { createMeteringRates } from './metering-rates.js';
import type { MeteringRepository } from './metering.repository.js';
import { createOverdueGuard } from './overdue-guard.js';
import { createReportPages } from './report-pages.js';
import { createShapePreviews } from './shape-preview.js';
import { createStatementUsage } from './statement-usage.js';
import type { StorageRequestCounter } from './storage-requests.js';

export { METERING_QUEUE } from './charging-run.js';
export { REAL_HOUR_MS } from './metering-rates.js';

export function createMeteringService(deps: {
  db: Database;
  repository: MeteringRepository;
  ledger: Pick<Ledger, 'debitUsage' | 'accountsWithCreditsExpiring' | 'overdueLimit' | 'freeCreditGrants' | 'usageDebitsByKey'>;
  subscriptions: Pick<SubscriptionsService, 'list' | 'balances' | 'requireOwned'>;
  clusters: Pick<ClustersService, 'notDeletedOf' | 'stopForOverdue' | 'auditLogs'>;
  /** The account owner's e-mail, where the notices go. */
  auth: Pick<AuthService, 'accountOwnerEmail'>;
  mail: Pick<MailService, 'enqueue' | 'dispatch'>;
  /** The owner's bell: every notice mailed is written there too. */
  notices: Pick<NoticesService, 'write'>;
  /** For the transaction history export and the report. */
  billing?: Pick<BillingService, 'transactions'>;
  /** Signs report sessions. */
  secret?: string;
  /** Where the portal is reached (report addresses). */
  publicUrl?: string;
  /** Whether a sign-in session is still open: a report address lives no longer than the session that asked for it. */
  sessionLive: (sessionId: string) => Promise<boolean>;
  clock: Clock;
  logger?: FastifyBaseLogger;
  /** Real milliseconds one billable hour lasts: an hour with AWS, 3,600,000 / SIM_TIME_SCALE in the simulated cloud. */
  hourMs: number;
  /** The cloud's count of a cluster's storage API requests per window; without it none are charged. */
  storageRequests?: StorageRequestCounter;
}) {
  const { db, repository, ledger, subscriptions, clusters, auth, mail, clock, logger, hourMs } = deps;
  const rates = createMeteringRates({ db, repository, clock });
  const analysis = createCostAnalysis({ repository, ratesAt: rates.ratesAt, clock });
  const overview = createCostOverview({ repository, subscriptions, rates, analysis, clock, hourMs });
  const previews = createShapePreviews({ repository, rates, subscriptions, clock });
  const guard = createOverdueGuard({
    db,
    repository,
    ledger,
    subscriptions,
    clusters,
    auth,
    mail,
    notices: deps.notices,
    clock,
    logger,
    hourCentsOf: (accountId) => rates.hourCentsOf(accountId, {}),
  });
  const afterCharge: AfterCharge[] = [];
  const run = createChargingRun({
    db,
    repository,
    ledger,
    guard,
    clock,
    logger,
    hourMs,
    storageRequests: deps.storageRequests,
    afterCharge,
  });
  const reports = createReportPages({ ...deps, overview, analysis });
  const exportRepository = createConsumptionExportRepository(db);
  const usageRows = createConsumptionExport({ repository: exportRepository, ledger });

  return {
    hourMs,
    run,
    /** Adds a step to run after each account's charges (the wiring attaches budgets here; metering knows none of them). */
    attachAfterCharge(step: AfterCharge): void {
      afterCharge.push(step);
    },
    ratesAt: rates.ratesAt,
    rateChanges: rates.rateChanges,
    rateCard: rates.rateCard,
    setRates: rates.setRates,
    ...overview,
    ...previews,
    chargedCents: (subscriptionIds: string[]) => repository.chargedCents(subscriptionIds),
    /** A cluster's charges per UTC day, newest first, as the cost tab shows them (its timeline's days). */
    clusterChargeDays: (clusterId: string, fromDay: string, toDay: string) => repository.clusterChargeDays(clusterId, fromDay, toDay),
    ...reports,
    /**
     * The usage rows of one of the account's subscriptions for the hours that began in [from, to), a period at a time; the
     * subscription is checked before the first row is asked for, so a stranger's is a 404 and not an empty export.
     */
    async consumptionExport(
      accountId: string,
      subscriptionId: string,
      range: { from: Date; to: Date },
      granularity: ConsumptionGranularity,
    ) {
      await subscriptions.requireOwned(accountId, subscriptionId);
      return usageRows(subscriptionId, range, granularity);
    },
    /** A statement's usage: the month's by the hour of use, and the month's debits by the month of the hours they paid for. */
    statementUsage: createStatementUsage({ usageRows, repository: exportRepository }),
  };
}
export type MeteringService = ReturnType<typeof createMeteringService>;

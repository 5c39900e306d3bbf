import { MESSAGES, type ReportUrlResponse } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { monthOf } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { BillingService } from '../billing/index.js';
import type { ClustersService } from '../clusters/index.js';
import type { CostAnalysis } from './cost-analysis.js';
import type { CostOverview } from './cost-overview.js';
import type { MeteringRepository } from './metering.repository.js';
import { createReportSessions, reportHtml } from './report.js';
import type { AccountCaller } from '../../http/caller.js';

/** Rows one CSV export holds at most. */
const EXPORT_MAX_ROWS = 10_000;

/**
 * The monthly report (its signed addresses, their logout, the page itself) and what the CSV exports read from other
 * modules: a subscription's transactions and a month of a cluster's audit log.
 */
export function createReportPages(deps: {
  repository: Pick<MeteringRepository, 'mark' | 'setMark'>;
  clusters: Pick<ClustersService, 'auditLogs'>;
  overview: Pick<CostOverview, 'subscriptionOverview'>;
  analysis: CostAnalysis;
  /** For the transaction history export and the report. */
  billing?: Pick<BillingService, 'transactions'>;
  /** Signs report sessions. */
  secret?: string;
  /** Where the portal is reached (report addresses). */
  publicUrl?: string;
  /** Whether a sign-in session is still open: a report address lives no longer than the session that asked for it. */
  sessionLive: (sessionId: string) => Promise<boolean>;
  clock: Clock;
}) {
  const { repository, clusters, overview, analysis, clock } = deps;
  const reportSessions = createReportSessions({ ...deps, reportLogoutAt: (userId) => repository.mark(`report-logout:${userId}`) });

  return {
    /** GET /api/user/report-url: a report address with a short-lived signed session, bound to the caller's session. */
    reportUrl(caller: Pick<AccountCaller, 'accountId' | 'userId' | 'sessionId'>): ReportUrlResponse {
      // Only these three go into the signed address.
      return reportSessions.issue({ accountId: caller.accountId, userId: caller.userId, sessionId: caller.sessionId });
    },

    /** GET /api/user/report-logout: every report address issued to the user until now stops working. */
    async reportLogout(accountId: string, userId: string): Promise<void> {
      await repository.setMark(`report-logout:${userId}`, accountId, clock.now());
    },

    /** The report page for a token, or null when the session is forged, expired or logged out. */
    async reportPage(token: string, startDate?: string): Promise<string | null> {
      const session = await reportSessions.open(token);
      if (!session) return null;
      const now = clock.now();
      const month = monthOf(startDate, now);
      const subscriptionOverviews = await overview.subscriptionOverview(session.accountId, startDate);
      const subscriptionsOfReport = [];
      for (const o of subscriptionOverviews) {
        const costs = await analysis(session.accountId, { subscriptionId: o.subscriptionId }, startDate);
        const all = deps.billing ? (await deps.billing.transactions(session.accountId, o.subscriptionId, 0, EXPORT_MAX_ROWS)).rows : [];
        const transactions = all.filter((t) => t.at >= month.from && t.at < month.to);
        subscriptionsOfReport.push({ overview: o, analysis: costs, transactions });
      }
      return reportHtml({ month: month.from.toISOString().slice(0, 7), generatedAt: now, subscriptions: subscriptionsOfReport });
    },

    /** Every transaction of the subscription (for the CSV): one page as large as the export allows. */
    async allTransactions(accountId: string, subscriptionId: string) {
      if (!deps.billing) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
      return (await deps.billing.transactions(accountId, subscriptionId, 0, EXPORT_MAX_ROWS)).rows;
    },

    /** A month of the cluster's audit log (for the CSV), through the clusters module's own query. */
    async monthOfAuditLogs(accountId: string, userId: string, clusterId: string, startDate?: string) {
      return (await clusters.auditLogs({ accountId, userId }, clusterId, 0, EXPORT_MAX_ROWS, startDate)).entries;
    },
  };
}

import { randomUUID } from 'node:crypto';
import {
  COMPUTE_DIMENSIONS,
  CONSUMPTION_CATEGORIES,
  METERING_DIMENSIONS,
  METERING_UNITS,
  amountToCents,
  centsToAmount,
  type ClusterConsumptionOverview,
  type ConsumptionCategory,
  type CreditAnalysis,
  type HourlyRatePreview,
  type MeteringDimension,
  type RateCard,
  type ReportUrlResponse,
  type ServiceConsumption,
  type SubscriptionConsumptionOverview,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { DAY, HOUR, monthOf } from '../../clock.js';
import type { Database, DbOrTx } from '../../db/client.js';
import { badRequest, notFound } from '../../errors.js';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingService } from '../billing/index.js';
import type { ClustersService } from '../clusters/index.js';
import type { Ledger } from '../ledger/index.js';
import type { MailService } from '../mail/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { CLUSTER_MESSAGES, MESSAGES } from '@kumo/contract';
import type { MeteringRepository, Scope, Sums } from './metering.repository.js';
import { DEFAULT_RATES, FREE_UNIT_SIZE, clusterHourCents, type Rate } from './rate-card.js';
import { createOverdueGuard } from './overdue-guard.js';
import { createReportSessions, reportHtml } from './report.js';

export const METERING_QUEUE = 'metering.charge';
export const REAL_HOUR_MS = HOUR;
/** Rows one CSV export holds at most. */
const EXPORT_MAX_ROWS = 10_000;

const dayText = (at: Date) => at.toISOString().slice(0, 10);

function emptyConsumption(): Record<ConsumptionCategory, number> {
  return Object.fromEntries(CONSUMPTION_CATEGORIES.map((c) => [c, 0])) as Record<ConsumptionCategory, number>;
}
function asDollars(cents: Record<ConsumptionCategory, number>): ServiceConsumption {
  return Object.fromEntries(Object.entries(cents).map(([k, v]) => [k, centsToAmount(v)])) as ServiceConsumption;
}
const isCompute = (d: MeteringDimension) => COMPUTE_DIMENSIONS.includes(d);

/**
 * Metering: turns the clusters' state history into one charge per (cluster, dimension, billable hour), charges
 * each run's new hours through the ledger, keeps daily rollups, and answers the cost screens. It also runs the
 * overdue guard (stops clusters) and mails the runway and credit-expiry notices.
 */
export function createMeteringService(deps: {
  db: Database;
  repository: MeteringRepository;
  ledger: Ledger;
  subscriptions: SubscriptionsService;
  clusters: ClustersService;
  mail: MailService;
  /** For the transaction history export and the report. */
  billing?: BillingService;
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
}) {
  const { db, repository: repo, ledger, subscriptions, clusters, mail, clock } = deps;

  async function ratesAt(accountId: string, at: Date): Promise<Rate[]> {
    const rows = await repo.rateRows(accountId);
    return DEFAULT_RATES.map((fallback) => {
      const row = rows.find((r) => r.dimension === fallback.dimension && r.effectiveFrom.getTime() <= at.getTime());
      return row ? { dimension: fallback.dimension, rateE4: row.rateE4, freeUnits: row.freeUnits } : fallback;
    });
  }

  /** What the clusters cost per real hour now (the sim's hours are shorter), per subscription. */
  async function realHourCentsOf(accountId: string, filter: { subscriptionId?: string; clusterId?: string }) {
    const [rates, rows] = await Promise.all([ratesAt(accountId, clock.now()), repo.clustersOf(accountId, filter)]);
    const billable = new Map<string, number>();
    for (const c of rows) {
      if (c.deleted || ['FAILED', 'DELETED', 'DELETED_PARTIALLY', 'DEPLOYING'].includes(c.status)) continue;
      const state = ['ONLINE', 'STARTING', 'STOPPING'].includes(c.status) ? 'running' : 'stopped';
      billable.set(c.subscriptionId, (billable.get(c.subscriptionId) ?? 0) + clusterHourCents(rates, state, c.hasBackup));
    }
    return (subscriptionId: string) => Math.round(((billable.get(subscriptionId) ?? 0) * REAL_HOUR_MS) / deps.hourMs);
  }

  function forecast(consumedCents: number, realHourCents: number, month: { from: Date; to: Date }): number {
    const now = clock.now();
    if (now >= month.to) return consumedCents;
    const remainingHours = Math.max(0, (month.to.getTime() - Math.max(now.getTime(), month.from.getTime())) / HOUR);
    return consumedCents + Math.round(realHourCents * remainingHours);
  }

  /** A month of costs of one subscription (all its clusters) or of one cluster, from the rollups. */
  async function analysis(accountId: string, scope: Scope, startDate: string | undefined): Promise<CreditAnalysis> {
    const now = clock.now();
    const month = monthOf(startDate, now);
    const yearFrom = new Date(Date.UTC(month.from.getUTCFullYear(), month.from.getUTCMonth() - 11, 1));
    const [rows, clusterSums, monthly, clusterRows, rates] = await Promise.all([
      repo.dailySums(scope, dayText(month.from), dayText(month.to)),
      repo.clusterSums(scope, dayText(month.from)),
      repo.monthlyCents(scope, dayText(yearFrom), dayText(month.to)),
      repo.clustersOf(accountId, scope),
      ratesAt(accountId, now),
    ]);

    const lastDay = new Date(Math.min(month.to.getTime(), Math.max(month.from.getTime() + DAY, now.getTime() + 1)) - 1);
    const days: string[] = [];
    for (let d = month.from.getTime(); d <= lastDay.getTime(); d += DAY) days.push(dayText(new Date(d)));

    const group = <T extends Sums>(list: T[], key: (r: T) => string) => {
      const groups = new Map<string, T[]>();
      for (const r of list) {
        const members = groups.get(key(r));
        if (members) members.push(r);
        else groups.set(key(r), [r]);
      }
      return groups;
    };
    const dayGroups = group(rows, (r) => r.day);
    const clusterGroups = group(clusterSums, (r) => r.clusterId);
    const byDay = (day: string) => dayGroups.get(day) ?? [];
    const categories = (list: Sums[]) => {
      const cents = emptyConsumption();
      for (const r of list) cents[r.dimension] += r.amountCents;
      return cents;
    };
    const sum = (list: Sums[], pick: (r: Sums) => boolean = () => true) => list.filter(pick).reduce((s, r) => s + r.amountCents, 0);
    let freeBuild = 0;
    let freeCache = 0;
    const freeBuildSize = FREE_UNIT_SIZE.DATA_PROCESS;

    const daily = days.map((day) => {
      const list = byDay(day);
      const cents = categories(list);
      return {
        date: day,
        daily_total: centsToAmount(sum(list)),
        service_consumption: asDollars(cents),
        compute_total: centsToAmount(sum(list, (r) => isCompute(r.dimension))),
        storage_total: centsToAmount(sum(list, (r) => !isCompute(r.dimension))),
      };
    });
    const consumption = days.map((day) => {
      const list = byDay(day);
      const usage = Object.fromEntries(METERING_DIMENSIONS.map((d) => [d, 0])) as Record<MeteringDimension, number>;
      for (const r of list) {
        usage[r.dimension] += r.quantity;
        if (r.dimension === 'DATA_PROCESS') freeBuild += r.freeQuantity / freeBuildSize;
        if (r.dimension === 'LOCAL_STORAGE') freeCache += r.freeQuantity;
      }
      for (const d of METERING_DIMENSIONS) usage[d] = Math.round(usage[d] * 10_000) / 10_000;
      return {
        date: day,
        usage,
        free_build_up_to: Math.round(freeBuild * 100) / 100,
        free_cache_storage_up_to: Math.round(freeCache * 100) / 100,
      };
    });
    // Free units used show as their own categories (at what they would have cost), not in the totals.
    const totalCents = categories(rows);
    const freeBuildRate = rates.find((r) => r.dimension === 'DATA_PROCESS')!.rateE4;
    const freeCacheRate = rates.find((r) => r.dimension === 'LOCAL_STORAGE')!.rateE4;
    const freeQty = (d: MeteringDimension) => rows.filter((r) => r.dimension === d).reduce((s, r) => s + r.freeQuantity, 0);
    totalCents.DATA_PROCESS_FREE = Math.round((freeQty('DATA_PROCESS') * freeBuildRate) / 100);
    totalCents.LOCAL_STORAGE_FREE = Math.round((freeQty('LOCAL_STORAGE') * freeCacheRate) / 100);

    const perCluster = clusterRows
      .map((c) => {
        const list = clusterGroups.get(c.id) ?? [];
        return { cluster: c, list, cents: sum(list) };
      })
      .filter(
        (entry) =>
          entry.list.length > 0 || (!entry.cluster.deleted && scope.clusterId === undefined) || scope.clusterId === entry.cluster.id,
      );

    const months: { date: string; monthly_consumed_amount: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const key = dayText(new Date(Date.UTC(yearFrom.getUTCFullYear(), yearFrom.getUTCMonth() + i, 1)));
      months.push({ date: key, monthly_consumed_amount: centsToAmount(monthly.get(key) ?? 0) });
    }

    return {
      start_date: month.from.toISOString(),
      end_date: month.to.toISOString(),
      daily,
      total_service_consumption: asDollars(totalCents),
      total: centsToAmount(sum(rows)),
      compute_total: centsToAmount(sum(rows, (r) => isCompute(r.dimension))),
      storage_total: centsToAmount(sum(rows, (r) => !isCompute(r.dimension))),
      clusters: perCluster.map(({ cluster, list, cents }) => ({
        deployment_id: cluster.id,
        cluster_name: cluster.name,
        total: centsToAmount(cents),
        service_consumption: asDollars(categories(list)),
      })),
      total_cluster_consumption: perCluster.map(({ cluster, cents }) => ({
        deployment_id: cluster.id,
        cluster_name: cluster.name,
        consumption: centsToAmount(cents),
        cluster_status: cluster.status,
        status_update_date: cluster.statusUpdatedAt.toISOString(),
      })),
      consumption,
      last_12_months: months,
    };
  }

  const analysis_ = analysis;
  const reportSessions = createReportSessions({ ...deps, reportLogoutAt: (userId) => repo.mark(`report-logout:${userId}`) });

  async function requireCluster(accountId: string, clusterId: string) {
    const [cluster] = await repo.clustersOf(accountId, { clusterId });
    // Another account's cluster is as unknown as one that never existed.
    if (!cluster) throw notFound('NOT_FOUND', CLUSTER_MESSAGES.clusterNotFound);
    return cluster;
  }

  const guard = createOverdueGuard({
    db,
    repository: repo,
    ledger,
    subscriptions,
    clusters,
    mail,
    clock,
    logger: deps.logger,
    hourCentsOf: (accountId) => realHourCentsOf(accountId, {}),
  });

  return {
    hourMs: deps.hourMs,

    /**
     * One metering run: charges every account's new billable hours (each account in one transaction with its
     * ledger entries, serialised per account), then the guards. Replaying or overlapping runs charge nothing twice.
     */
    async run(): Promise<{ hours: number; cents: number }> {
      const now = clock.now();
      const runId = randomUUID();
      await repo.registerClusters(deps.hourMs, now);
      let hours = 0;
      let cents = 0;
      for (const accountId of await repo.accountsToMeter()) {
        await db.transaction(async (tx) => {
          await repo.lockAccount(accountId, tx);
          const totals = await repo.chargeAccount(accountId, now, runId, tx);
          for (const total of totals) {
            hours += total.hours;
            cents += total.cents;
            if (total.cents <= 0) continue;
            await ledger.debitUsage(
              {
                subscriptionId: total.subscriptionId,
                amountCents: total.cents,
                idempotencyKey: `metering:${runId}:${total.subscriptionId}`,
                description: `Service usage (${total.hours} billable unit${total.hours === 1 ? '' : 's'})`,
                usedAlready: true,
              },
              tx,
            );
          }
          await repo.markChecked(accountId, now, tx);
        });
        try {
          await guard.guardAccount(accountId);
        } catch (error) {
          deps.logger?.warn({ err: error, accountId }, 'metering guard failed');
        }
      }
      // Credit expiry concerns accounts whether or not they have clusters.
      for (const accountId of await repo.accountsWithCreditsExpiring(now, new Date(now.getTime() + 3 * DAY))) {
        try {
          await guard.creditExpiryNotices(accountId);
        } catch (error) {
          deps.logger?.warn({ err: error, accountId }, 'credit expiry notice failed');
        }
      }
      return { hours, cents };
    },

    ratesAt,

    /** The account's rate rows, newest first: the rate history staff see. */
    rateChanges: (accountId: string) => repo.rateRows(accountId),

    async rateCard(accountId: string): Promise<RateCard> {
      const now = clock.now();
      const rates = await ratesAt(accountId, now);
      const rows = await repo.rateRows(accountId);
      const effective = rows.find((r) => r.effectiveFrom.getTime() <= now.getTime())?.effectiveFrom ?? new Date(0);
      return {
        effective_date: effective.toISOString(),
        service_rate: Object.fromEntries(rates.map((r) => [r.dimension, r.rateE4 / 10_000])) as RateCard['service_rate'],
        free_units: {
          DATA_PROCESS: rates.find((r) => r.dimension === 'DATA_PROCESS')!.freeUnits,
          LOCAL_STORAGE: rates.find((r) => r.dimension === 'LOCAL_STORAGE')!.freeUnits,
        },
        rates: rates.map((r) => ({
          dimension: r.dimension,
          rate: r.rateE4 / 10_000,
          free_units: r.freeUnits,
          unit: METERING_UNITS[r.dimension],
        })),
      };
    },

    /**
     * New rates from `effectiveFrom` on (not before now: charged hours are never re-priced). Staff call this through
     * an approval, passing its transaction so the rates and the approval commit together.
     */
    async setRates(accountId: string, rates: Rate[], effectiveFrom: Date, actorUserId: string | null, tx: DbOrTx = db): Promise<void> {
      const now = clock.now();
      if (effectiveFrom.getTime() < now.getTime() - 60_000) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      for (const rate of rates) {
        if (!Number.isSafeInteger(rate.rateE4) || rate.rateE4 < 0 || rate.rateE4 >= 1_000_000 || rate.freeUnits < 0) {
          throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
        }
      }
      await repo.insertRates(accountId, rates, effectiveFrom, actorUserId, now, tx);
    },

    async subscriptionOverview(accountId: string, startDate?: string): Promise<SubscriptionConsumptionOverview[]> {
      const month = monthOf(startDate, clock.now());
      const list = await subscriptions.list(accountId);
      const [consumedCents, hourCents] = await Promise.all([
        repo.subscriptionCents(
          list.map((s) => s.subscription_id),
          dayText(month.from),
          dayText(month.to),
        ),
        realHourCentsOf(accountId, {}),
      ]);
      return list.map((s) => {
        const consumed = consumedCents.get(s.subscription_id) ?? 0;
        const hourly = hourCents(s.subscription_id);
        const balance = amountToCents(s.balance);
        const credits = amountToCents(s.credits);
        return {
          subscription_id: s.subscription_id,
          subscription_name: s.subscription_name,
          consumed_amount: centsToAmount(consumed),
          forecasted_amount: centsToAmount(forecast(consumed, hourly, month)),
          balance: s.balance,
          paid_funds: centsToAmount(balance - credits),
          free_credits: s.credits,
          hourly_rate: centsToAmount(hourly),
          runway_hours: hourly > 0 && balance > 0 ? Math.round((balance / hourly) * 10) / 10 : null,
          start_date: month.from.toISOString(),
          end_date: month.to.toISOString(),
        };
      });
    },

    async subscriptionAnalysis(accountId: string, subscriptionId: string, startDate?: string): Promise<CreditAnalysis> {
      await subscriptions.requireOwned(accountId, subscriptionId);
      return analysis(accountId, { subscriptionId }, startDate);
    },

    async clusterAnalysis(accountId: string, clusterId: string, startDate?: string): Promise<CreditAnalysis> {
      const cluster = await requireCluster(accountId, clusterId);
      return analysis(accountId, { subscriptionId: cluster.subscriptionId, clusterId: cluster.id }, startDate);
    },

    async clusterOverview(accountId: string, clusterId: string, startDate?: string): Promise<ClusterConsumptionOverview> {
      const cluster = await requireCluster(accountId, clusterId);
      const month = monthOf(startDate, clock.now());
      const scope = { subscriptionId: cluster.subscriptionId, clusterId: cluster.id };
      const [monthly, hourCents] = await Promise.all([
        repo.monthlyCents(scope, dayText(month.from), dayText(month.to)),
        realHourCentsOf(accountId, { clusterId }),
      ]);
      const consumed = monthly.get(dayText(month.from)) ?? 0;
      const hourly = hourCents(cluster.subscriptionId);
      return {
        deployment_id: cluster.id,
        cluster_name: cluster.name,
        subscription_id: cluster.subscriptionId,
        consumed_amount: centsToAmount(consumed),
        forecasted_amount: centsToAmount(forecast(consumed, hourly, month)),
        hourly_rate: centsToAmount(hourly),
        start_date: month.from.toISOString(),
        end_date: month.to.toISOString(),
      };
    },

    /** The cost preview: what one running cluster costs per real hour at the account's rates, and how long the balance lasts. */
    async hourlyRatePreview(accountId: string, subscriptionId: string, dr: boolean): Promise<HourlyRatePreview> {
      const subscription = await subscriptions.details(accountId, subscriptionId);
      const rates = await ratesAt(accountId, clock.now());
      const realHourCents = Math.round((clusterHourCents(rates, 'running', dr) * REAL_HOUR_MS) / deps.hourMs);
      const balance = amountToCents(subscription.balance);
      return {
        hourly_rate: centsToAmount(realHourCents),
        balance: subscription.balance,
        covers_hours: realHourCents > 0 ? Math.max(0, Math.floor(balance / realHourCents)) : 0,
      };
    },

    chargedCents: (subscriptionIds: string[]) => repo.chargedCents(subscriptionIds),

    /** GET /api/user/report-url: a report address with a short-lived signed session, bound to the caller's session. */
    reportUrl(claims: { accountId: string; userId: string; sessionId: string }): ReportUrlResponse {
      return reportSessions.issue(claims);
    },

    /** GET /api/user/report-logout: every report address issued to the user until now stops working. */
    async reportLogout(accountId: string, userId: string): Promise<void> {
      await repo.setMark(`report-logout:${userId}`, accountId, clock.now());
    },

    /** The report page for a token, or null when the session is forged, expired or logged out. */
    async reportPage(token: string, startDate?: string): Promise<string | null> {
      const session = await reportSessions.open(token);
      if (!session) return null;
      const now = clock.now();
      const month = monthOf(startDate, now);
      const overview = await this.subscriptionOverview(session.accountId, startDate);
      const subscriptionsOfReport = [];
      for (const o of overview) {
        const analysis = await analysis_(session.accountId, { subscriptionId: o.subscription_id }, startDate);
        const all = deps.billing ? (await deps.billing.transactions(session.accountId, o.subscription_id, 0, EXPORT_MAX_ROWS)).content : [];
        const transactions = all.filter((t) => {
          const at = Date.parse(t.transaction_date);
          return at >= month.from.getTime() && at < month.to.getTime();
        });
        subscriptionsOfReport.push({ overview: o, analysis, transactions });
      }
      return reportHtml({ month: month.from.toISOString().slice(0, 7), generatedAt: now, subscriptions: subscriptionsOfReport });
    },

    /** Every transaction of the subscription (for the CSV): one page as large as the export allows. */
    async allTransactions(accountId: string, subscriptionId: string) {
      if (!deps.billing) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
      return (await deps.billing.transactions(accountId, subscriptionId, 0, EXPORT_MAX_ROWS)).content;
    },

    /** A month of the cluster's audit log (for the CSV), through the clusters module's own query. */
    async monthOfAuditLogs(accountId: string, userId: string, clusterId: string, startDate?: string) {
      return (await clusters.auditLogs({ accountId, userId }, clusterId, 0, EXPORT_MAX_ROWS, startDate)).page_content.content;
    },
  };
}
export type MeteringService = ReturnType<typeof createMeteringService>;

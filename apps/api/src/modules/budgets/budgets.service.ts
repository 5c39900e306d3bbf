/**
 * Budgets: a monthly amount per subscription with alert thresholds and an optional hard cap (docs/spend-control.md).
 * Answers in cents and Dates; the routes' presentation.ts writes the wire's dollars.
 */
import { budgetExceededMessage, type BudgetSettings, type ErrorCode } from '@kumo/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import type { ClustersService, DeployingCluster, StartingCluster } from '../clusters/index.js';
import type { MailService } from '../mail/index.js';
import type { NoticesService } from '../notices/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import { createBudgetAlerts } from './budget-alerts.js';
import {
  METERING_RUN_INTERVAL_MS,
  METERING_RUN_LATENESS_MS,
  QUERY_ENGINE_HOURS_UNCHARGED,
  type MeteringService,
} from '../metering/index.js';
import { monthKey, startHeadroomCents, type CapHorizon, type Spend } from './budget-rules.js';
import type { AlertRow, BudgetRow, BudgetsRepository } from './budgets.repository.js';

/** A subscription's budget (none when unset) with the month's spend and the alerts sent this month. */
export interface BudgetValues {
  subscriptionId: string;
  budget: BudgetRow | undefined;
  spend: Spend;
  alerts: AlertRow[];
  /** With the hard cap, the most a cluster's running hour may cost for it to start now (negative: none may); else undefined. */
  startHeadroomCents: number | undefined;
}

const NO_SPEND: Spend = { consumedCents: 0, forecastCents: 0, hourlyCents: 0, engineHourlyCents: 0 };

export function createBudgetsService(deps: {
  db: Database;
  repository: BudgetsRepository;
  subscriptions: Pick<SubscriptionsService, 'requireOwned' | 'list'>;
  /**
   * The month's spend and forecast, as the cost overview reads them; what a running cluster costs per hour (the cost
   * preview); and how long a billable hour lasts, which sets how far the hard cap looks ahead.
   */
  metering: Pick<MeteringService, 'monthSpend' | 'hourlyRatePreview' | 'hourMs'>;
  clusters: Pick<ClustersService, 'stopForOverdue'>;
  mail: Pick<MailService, 'enqueue' | 'dispatch'>;
  notices: Pick<NoticesService, 'write'>;
  clock: Clock;
  logger?: FastifyBaseLogger;
}) {
  const { repository, subscriptions, metering, clock } = deps;
  // The hours that begin before the next metering run could stop a cluster, that run coming late: one with AWS, more in
  // the faster demo cloud; and the query engines' hour running and the one settling, run but not yet charged.
  const horizon: CapHorizon = {
    hoursAhead: Math.max(1, Math.ceil((METERING_RUN_INTERVAL_MS + METERING_RUN_LATENESS_MS) / metering.hourMs)),
    engineHoursBehind: QUERY_ENGINE_HOURS_UNCHARGED,
  };
  const alerts = createBudgetAlerts({ ...deps, horizon, hourMs: metering.hourMs });

  async function spendOf(accountId: string, subscriptionId: string): Promise<Spend> {
    return (await metering.monthSpend(accountId, [subscriptionId])).get(subscriptionId) ?? NO_SPEND;
  }

  async function read(accountId: string, subscriptionId: string): Promise<BudgetValues> {
    const [budget, spend, sent] = await Promise.all([
      repository.find(subscriptionId),
      spendOf(accountId, subscriptionId),
      repository.alertsOf(subscriptionId, monthKey(clock.now())),
    ]);
    return { subscriptionId, budget, spend, alerts: sent, startHeadroomCents: startHeadroomCents(budget, spend, horizon) };
  }

  return {
    async get(accountId: string, subscriptionId: string): Promise<BudgetValues> {
      await subscriptions.requireOwned(accountId, subscriptionId);
      return read(accountId, subscriptionId);
    },

    /**
     * Saves the budget and checks it at once against the month's spend: a lowered budget fires the thresholds it now
     * crosses (and a reached hard cap stops the clusters), a raised one re-arms this month's alerts above the spend.
     */
    async put(accountId: string, subscriptionId: string, settings: BudgetSettings): Promise<BudgetValues> {
      const subscription = await subscriptions.requireOwned(accountId, subscriptionId);
      const budget: BudgetRow = {
        subscriptionId,
        accountId,
        monthlyAmountCents: settings.monthly_amount,
        thresholds: settings.thresholds,
        alertOnForecast: settings.alert_on_forecast,
        stopClustersAtLimit: settings.stop_clusters_at_limit,
      };
      await repository.save(budget, clock.now());
      await alerts.check(accountId, subscription.name, budget, await spendOf(accountId, subscriptionId), { rearm: true });
      return read(accountId, subscriptionId);
    },

    /** Removes the budget and its alerts: nothing is checked or refused for the subscription any more. */
    async delete(accountId: string, subscriptionId: string): Promise<BudgetValues> {
      await subscriptions.requireOwned(accountId, subscriptionId);
      await repository.remove(subscriptionId);
      return read(accountId, subscriptionId);
    },

    /** After each account's charges in a metering run: every budget of its live subscriptions is checked. */
    async afterCharge(accountId: string): Promise<void> {
      const list = await repository.ofAccount(accountId);
      if (list.length === 0) return;
      const names = new Map((await subscriptions.list(accountId)).map((s) => [s.id, s.name]));
      const live = list.filter((budget) => names.has(budget.subscriptionId));
      const spend = await metering.monthSpend(
        accountId,
        live.map((budget) => budget.subscriptionId),
      );
      for (const budget of live) {
        await alerts.check(accountId, names.get(budget.subscriptionId)!, budget, spend.get(budget.subscriptionId) ?? NO_SPEND, {
          rearm: false,
        });
      }
    },

    /**
     * The clusters' gate on a start or a create: under the hard cap, a cluster runs only if the hours ahead of it and of
     * the subscription's other clusters (those still deploying at their running hour) fit in the budget, else the next
     * run would stop it (or pass the budget first). Refused until the budget is raised or the month ends. Everything is
     * read in the caller's transaction, which holds the subscription's lock: a start or create that went before has
     * committed and is counted, and the check takes no second connection from the pool.
     */
    async startRefusal(
      accountId: string,
      subscriptionId: string,
      tx: Tx,
      cluster: StartingCluster,
      deploying: DeployingCluster[],
    ): Promise<{ code: ErrorCode; message: string } | undefined> {
      const budget = await repository.find(subscriptionId, tx);
      if (!budget?.stopClustersAtLimit) return undefined;
      const hourOf = async (dr: boolean, cores: number, state: 'running' | 'stopped' = 'running') =>
        (await metering.hourlyRatePreview(accountId, subscriptionId, dr, cores, state, tx)).hourlyCents;
      const spend = (await metering.monthSpend(accountId, [subscriptionId], tx)).get(subscriptionId) ?? NO_SPEND;
      const adds =
        (await hourOf(cluster.dr, cluster.queryEngineCores)) -
        // An existing cluster's present cost is in the subscription's hourly rate already: only the difference is new.
        (cluster.already ? await hourOf(cluster.dr, cluster.already.queryEngineCores, cluster.already.state) : 0);
      let pending = 0;
      for (const other of deploying) pending += await hourOf(other.dr, other.queryEngineCores);
      if (adds <= startHeadroomCents(budget, { ...spend, hourlyCents: spend.hourlyCents + pending }, horizon)!) return undefined;
      const subscription = await subscriptions.requireOwned(accountId, subscriptionId, tx);
      return { code: 'BUDGET_EXCEEDED', message: budgetExceededMessage(subscription.name) };
    },
  };
}
export type BudgetsService = ReturnType<typeof createBudgetsService>;

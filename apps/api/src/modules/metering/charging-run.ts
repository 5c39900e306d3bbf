import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.js';
import { DAY } from '../../clock.js';
import type { Database } from '../../db/client.js';
import type { Ledger } from '../ledger/index.js';
import type { MeteringRepository } from './metering.repository.js';
import type { createOverdueGuard } from './overdue-guard.js';
import { createRequestCounting, type StorageRequestCounter } from './storage-requests.js';

export const METERING_QUEUE = 'metering.charge';

/** A step another module runs after each account's charges are committed (and the overdue guard has run). */
export type AfterCharge = (accountId: string) => Promise<void>;

/**
 * The metering run: turns the clusters' usage changes (their published read model) into one charge per (cluster, dimension, billable hour) and
 * charges each run's new hours through the ledger, then runs the overdue guard, the attached after-charge steps
 * (budgets) and the credit-expiry notices.
 */
export function createChargingRun(deps: {
  db: Database;
  repository: Pick<
    MeteringRepository,
    'registerClusters' | 'accountsToMeter' | 'lockAccount' | 'chargeAccount' | 'markChecked' | 'requestMarks' | 'markRequestsCounted'
  >;
  ledger: Pick<Ledger, 'debitUsage' | 'accountsWithCreditsExpiring'>;
  guard: Pick<ReturnType<typeof createOverdueGuard>, 'guardAccount' | 'creditExpiryNotices'>;
  clock: Clock;
  logger?: FastifyBaseLogger;
  /** Real milliseconds one billable hour lasts. */
  hourMs: number;
  /** The cloud's count of storage API requests; without it none are charged. */
  storageRequests?: StorageRequestCounter;
  /** What other modules do after an account is charged (budgets), attached by the wiring; each in turn, after the guard. */
  afterCharge: readonly AfterCharge[];
}) {
  const { db, repository, ledger, guard, clock } = deps;
  const countRequests = createRequestCounting({ repository, count: deps.storageRequests, logger: deps.logger });

  /**
   * One metering run: charges every account's new billable hours (each account in one transaction with its
   * ledger entries, serialised per account), then the guards. Replaying or overlapping runs charge nothing twice.
   * `only` limits the run to one account: the demo account's history is charged day by day on a clock set in the
   * past, which must not move any other account's check mark back.
   */
  return async function run(only?: { accountId: string }): Promise<{ hours: number; cents: number }> {
    const now = clock.now();
    const runId = randomUUID();
    await repository.registerClusters(deps.hourMs, only?.accountId);
    let hours = 0;
    let cents = 0;
    const metered = await repository.accountsToMeter();
    for (const accountId of only ? metered.filter((id) => id === only.accountId) : metered) {
      const requests = await countRequests(accountId, now);
      await db.transaction(async (tx) => {
        await repository.lockAccount(accountId, tx);
        const totals = await repository.chargeAccount(accountId, now, runId, tx, requests.requests);
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
        await repository.markChecked(accountId, now, tx);
        await repository.markRequestsCounted(requests.counted, tx);
      });
      try {
        await guard.guardAccount(accountId);
      } catch (error) {
        deps.logger?.warn({ err: error, accountId }, 'metering guard failed');
      }
      for (const after of deps.afterCharge) {
        try {
          await after(accountId);
        } catch (error) {
          deps.logger?.warn({ err: error, accountId }, 'after-charge step failed');
        }
      }
    }
    // Credit expiry concerns accounts whether or not they have clusters.
    const expiring = await ledger.accountsWithCreditsExpiring(now, new Date(now.getTime() + 3 * DAY));
    for (const accountId of only ? expiring.filter((id) => id === only.accountId) : expiring) {
      try {
        await guard.creditExpiryNotices(accountId);
      } catch (error) {
        deps.logger?.warn({ err: error, accountId }, 'credit expiry notice failed');
      }
    }
    return { hours, cents };
  };
}

import { MESSAGES, centsToAmount, type BalanceOutlook, type ScheduledRateChange } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import { DAY } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { Ledger } from '../ledger/index.js';
import type { SubscriptionsService } from '../subscriptions/index.js';
import type { MeteringService } from './metering.service.js';

/**
 * Hours until the overdue guard stops the clusters (it stops them once the balance is below -limit), to a tenth of an
 * hour and never rounded down to 0, which means the balance is already there.
 */
export function hoursUntilStop(balanceCents: number, overdueLimitCents: number, hourlyCents: number): number | null {
  if (hourlyCents <= 0) return null;
  const headroom = balanceCents + overdueLimitCents;
  if (headroom <= 0) return 0;
  return Math.max(0.1, Math.round((headroom / hourlyCents) * 10) / 10);
}

/**
 * The subscription details' view of money ahead: how long the balance lasts at the current rate, paid funds and
 * free credits apart (each grant with its expiry), and the account's rate changes still to come.
 */
export function createBalanceOutlook(deps: {
  metering: Pick<MeteringService, 'subscriptionOverview' | 'rateChanges' | 'ratesAt'>;
  ledger: Pick<Ledger, 'freeCreditGrants' | 'overdueLimit'>;
  subscriptions: Pick<SubscriptionsService, 'requireOwned'>;
  clock: Clock;
}) {
  const { metering, ledger, subscriptions, clock } = deps;

  /** Each future effective date with the rates that differ from those in force just before it. */
  async function scheduledRateChanges(accountId: string, now: Date): Promise<ScheduledRateChange[]> {
    const rows = await metering.rateChanges(accountId);
    const dates = [...new Set(rows.filter((r) => r.effectiveFrom > now).map((r) => r.effectiveFrom.getTime()))].sort((a, b) => a - b);
    const changes: ScheduledRateChange[] = [];
    for (const at of dates) {
      const [before, after] = await Promise.all([metering.ratesAt(accountId, new Date(at - 1)), metering.ratesAt(accountId, new Date(at))]);
      const rates = after.flatMap((rate) => {
        const old = before.find((r) => r.dimension === rate.dimension)!;
        if (old.rateE4 === rate.rateE4 && old.freeUnits === rate.freeUnits) return [];
        return [
          {
            dimension: rate.dimension,
            rate: rate.rateE4 / 10_000,
            previous_rate: old.rateE4 / 10_000,
            free_units: rate.freeUnits,
            previous_free_units: old.freeUnits,
          },
        ];
      });
      if (rates.length > 0) changes.push({ effective_date: new Date(at).toISOString(), rates });
    }
    return changes;
  }

  return {
    async ofSubscription(accountId: string, subscriptionId: string): Promise<BalanceOutlook> {
      await subscriptions.requireOwned(accountId, subscriptionId);
      const now = clock.now();
      // The overview's rate and runway, so the details and home say the same.
      const [overview, grants, scheduled, overdueLimitCents] = await Promise.all([
        metering.subscriptionOverview(accountId),
        ledger.freeCreditGrants(subscriptionId),
        scheduledRateChanges(accountId, now),
        ledger.overdueLimit(accountId),
      ]);
      const row = overview.find((o) => o.subscriptionId === subscriptionId);
      if (!row) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
      return {
        subscription_id: subscriptionId,
        balance: centsToAmount(row.balanceCents),
        paid_funds: centsToAmount(row.paidFundsCents),
        free_credits: centsToAmount(row.freeCreditsCents),
        free_credit_grants: grants.map((g) => ({
          granted_at: g.grantedAt.toISOString(),
          amount: centsToAmount(g.amountCents),
          remaining: centsToAmount(g.remainingCents),
          expires_at: g.expiresAt.toISOString(),
          days_left: Math.floor((g.expiresAt.getTime() - now.getTime()) / DAY),
        })),
        hourly_rate: centsToAmount(row.hourlyCents),
        runway_hours: row.runwayHours,
        overdue_limit: centsToAmount(overdueLimitCents),
        hours_until_stop: hoursUntilStop(row.balanceCents, overdueLimitCents, row.hourlyCents),
        scheduled_rate_changes: scheduled,
      };
    },
  };
}

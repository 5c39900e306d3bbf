/**
 * The spend controls as the money property test follows them, worked out from the charges and the hourly rates: a
 * budget's hard cap (reached when the month's charged spend, the query engines' two hours not yet charged and the hours
 * ahead at the current rate would pass the amount), the clusters it stops, the starts it refuses, and the alerts it sends.
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { DEFAULT_CLUSTER_SIZE, QUERY_ENGINE_LIMITS, queryEngineCores } from '@kumo/contract';
import { DIMENSION_KIND } from '../../src/modules/metering/rate-card.js';
import type { TestContext } from './harness.js';
import { rows } from './metering.js';

/**
 * The hours the cap looks ahead here: a billable hour lasts the run interval, and a run may come half an interval late,
 * so two hours begin before a later run could stop a cluster.
 */
const HOURS_AHEAD = 2;

/** The budget the sequence set last: the amount in cents and whether it stops clusters at 100 %. */
export interface ModelBudget {
  cents: number;
  cap: boolean;
}

/** Cents charged to the subscription in the clock's UTC month, summed from the charges themselves (not the rollups). */
export async function monthChargedCents(ctx: TestContext, subscriptionId: string): Promise<number> {
  const month = ctx.clock.now().toISOString().slice(0, 7);
  const [sum] = await rows<{ cents: string }>(
    ctx,
    sql`select coalesce(sum(amount_cents), 0)::text as cents from metering_charges
        where subscription_id = ${subscriptionId} and to_char(hour_start at time zone 'UTC', 'YYYY-MM') = ${month}`,
  );
  return Number(sum!.cents);
}

/** What the subscription's clusters cost per billable hour now, and what one more running cluster would. */
async function hourlyCents(ctx: TestContext, accountId: string, subscriptionId: string, dr: boolean) {
  const spend = (await ctx.services.metering.monthSpend(accountId, [subscriptionId])).get(subscriptionId)!;
  const preview = await ctx.services.metering.hourlyRatePreview(accountId, subscriptionId, dr);
  return { now: spend.hourlyCents, engines: spend.engineHourlyCents, cluster: preview.hourlyCents };
}

/** The month's charges and the query engines' hours run but not charged yet: the one running and the one settling. */
async function committedCents(ctx: TestContext, subscriptionId: string, hourly: { engines: number }) {
  return (await monthChargedCents(ctx, subscriptionId)) + 2 * hourly.engines;
}

/** The cap stops the clusters: the hours ahead at the current rate would pass the budget. */
export async function capReached(
  ctx: TestContext,
  accountId: string,
  subscriptionId: string,
  budget: ModelBudget | undefined,
): Promise<boolean> {
  if (!budget?.cap) return false;
  const hourly = await hourlyCents(ctx, accountId, subscriptionId, false);
  return (await committedCents(ctx, subscriptionId, hourly)) + HOURS_AHEAD * hourly.now > budget.cents;
}

/** The cap refuses a start: the hours ahead with one more cluster running would pass the budget. */
export async function expectedRefusal(
  ctx: TestContext,
  accountId: string,
  subscriptionId: string,
  budget: ModelBudget | undefined,
  dr: boolean,
): Promise<boolean> {
  if (!budget?.cap) return false;
  const hourly = await hourlyCents(ctx, accountId, subscriptionId, dr);
  return (await committedCents(ctx, subscriptionId, hourly)) + HOURS_AHEAD * (hourly.now + hourly.cluster) > budget.cents;
}

/** The model's clusters all have the default shape. */
const DEFAULT_ENGINE_CORES = queryEngineCores(DEFAULT_CLUSTER_SIZE, QUERY_ENGINE_LIMITS.default);

/**
 * What the clusters' start gate answers for a cluster of the subscription: the refusal's code, if any. The model's
 * clusters come online at once, so none is ever deploying.
 */
export async function startRefused(ctx: TestContext, accountId: string, subscriptionId: string, dr: boolean): Promise<string | undefined> {
  const refusal = await ctx.database.db.transaction((tx) =>
    ctx.services.budgets.startRefusal(accountId, subscriptionId, tx, { dr, queryEngineCores: DEFAULT_ENGINE_CORES }, []),
  );
  return refusal?.code;
}

/** The subscription's clusters a stop was asked for (STOPPING), each with the reason its audit log gives. */
export async function stopsAsked(ctx: TestContext, subscriptionId: string): Promise<{ id: string; byBudget: boolean }[]> {
  const asked = await rows<{ id: string; description: string }>(
    ctx,
    sql`select c.id, (select l.description from cluster_audit_logs l where l.cluster_id = c.id and l.event = 'CLUSTER_STOP_REQUESTED'
                      order by l.seq desc limit 1) as description
          from clusters c where c.subscription_id = ${subscriptionId} and c.status = 'STOPPING'`,
  );
  return asked.map((row) => ({ id: row.id, byBudget: row.description.includes('monthly budget') }));
}

/**
 * The budget's alerts as sent: each (kind, threshold) claimed at most once a month, claimed again only after a saved
 * budget re-armed it, and one mail per claim at most.
 */
export function alertLedger(ctx: TestContext, subscriptionId: string) {
  const held = new Map<string, string>();
  let fired = 0;
  return {
    /** After each step: alerts may only disappear (be re-armed) when a budget was saved. */
    async observe(budgetSaved: boolean): Promise<void> {
      const now = await rows<{ key: string; sent_at: string }>(
        ctx,
        sql`select kind || '-' || threshold as key, sent_at::text from budget_alerts where subscription_id = ${subscriptionId}`,
      );
      const current = new Map(now.map((row) => [row.key, row.sent_at]));
      for (const [key, sentAt] of held) {
        if (current.get(key) === sentAt) continue;
        // Gone or claimed anew: only a saved budget re-arms an alert.
        expect(budgetSaved, `alert ${key} re-armed without a saved budget`).toBe(true);
        held.delete(key);
      }
      for (const [key, sentAt] of current) {
        if (held.has(key)) continue;
        held.set(key, sentAt);
        fired++;
      }
    },
    /** At the end: never more alert mails to the owner than alerts claimed, and some when any was. */
    async expectMailedOnce(ownerUserId: string): Promise<void> {
      const [mailed] = await rows<{ n: string }>(
        ctx,
        sql`select count(*)::text as n from mail_outbox m join users u on u.email = m.to_address
            where u.id = ${ownerUserId}
              and (m.subject like '%of the monthly budget reached' or m.subject like '%forecast reaches%of the budget')`,
      );
      expect(Number(mailed!.n)).toBeLessThanOrEqual(fired);
      expect(Number(mailed!.n) > 0).toBe(fired > 0);
    },
  };
}

/** A stop of a cluster by the hard cap, at the instant it was asked for, with the cluster's running segments. */
export interface CapStop {
  cluster: { id: string; origin: number; segments: { from: number; state: 'running' | 'stopped' }[] };
  at: number;
}

/** Compute charged for a cluster the cap stopped, for an hour after the one it stopped in and before it started again. */
export function computeAfterCapStops(stops: CapStop[], charges: { cluster_id: string; dimension: string; at: string }[], hourMs: number) {
  return stops.flatMap(({ cluster, at }) => {
    const nextHour = cluster.origin + (Math.floor((at - cluster.origin) / hourMs) + 1) * hourMs;
    const restart = cluster.segments.find((s) => s.state === 'running' && s.from > at)?.from ?? Infinity;
    return charges.filter(
      (c) =>
        c.cluster_id === cluster.id &&
        DIMENSION_KIND[c.dimension as keyof typeof DIMENSION_KIND] === 'compute' &&
        Number(c.at) >= nextHour &&
        Number(c.at) < restart,
    );
  });
}

import {
  CENTS_PER_DOLLAR,
  MESSAGES,
  SIGN_UP_CREDIT_USD,
  centsToAmount,
  type CreateSubscriptionRequest,
  type Subscription,
  type SubscriptionStatus,
  type SubscriptionType,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { businessRule, conflict, notFound } from '../../errors.js';
import type { Ledger } from '../ledger/ledger.service.js';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';

const SIGN_UP_CREDIT_CENTS = SIGN_UP_CREDIT_USD * CENTS_PER_DOLLAR;

/** This month's usage projected over the whole month (UTC), in cents. */
export function forecastForMonth(consumedCents: number, now: Date): number {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  const elapsed = now.getTime() - start;
  if (consumedCents === 0 || elapsed <= 0) return consumedCents;
  // BigInt keeps cents × milliseconds exact.
  return Number((BigInt(consumedCents) * BigInt(end - start) + BigInt(elapsed) / 2n) / BigInt(elapsed));
}

export function createSubscriptionsService(deps: {
  db: Database;
  subscriptionsRepository: SubscriptionsRepository;
  ledger: Ledger;
  clock: Clock;
}) {
  const { db, subscriptionsRepository: repo, ledger, clock } = deps;

  async function present(rows: SubscriptionRow[]): Promise<Subscription[]> {
    const summaries = await ledger.summaries(rows.map((row) => row.id));
    const now = clock.now();
    return rows.map((row) => {
      const summary = summaries.get(row.id);
      const consumed = summary?.consumedThisMonthCents ?? 0;
      return {
        subscription_id: row.id,
        subscription_name: row.name,
        subscription_type: row.type as SubscriptionType,
        remark: row.remark,
        status: row.status as SubscriptionStatus,
        total_amount: centsToAmount(row.balanceCents),
        balance: centsToAmount(row.balanceCents),
        credits: centsToAmount(summary?.freeCreditsCents ?? 0),
        credits_expire_at: summary?.nextCreditExpiry?.toISOString() ?? null,
        consumed_amount: centsToAmount(consumed),
        forecasted_amount: centsToAmount(forecastForMonth(consumed, now)),
        active_cluster_count: row.activeClusterCount,
        created_by: row.createdByName,
        subscribed_by_email_id: row.createdByEmail,
        created_at: row.createdAt.toISOString(),
      };
    });
  }

  async function requireOwned(accountId: string, subscriptionId: string, tx?: Tx): Promise<SubscriptionRow> {
    const row = await repo.findForAccount(accountId, subscriptionId, tx);
    // Another account's subscription is as unknown as one that never existed.
    if (!row) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
    return row;
  }

  return {
    requireOwned,

    list: async (accountId: string) => present(await repo.listForAccount(accountId)),

    async details(accountId: string, subscriptionId: string): Promise<Subscription> {
      const [subscription] = await present([await requireOwned(accountId, subscriptionId)]);
      return subscription!;
    },

    /** Creates a prepaid subscription; the account's first one ever comes with the sign-up free credits. */
    async create(accountId: string, userId: string, input: Required<CreateSubscriptionRequest>): Promise<string> {
      return db.transaction(async (tx) => {
        await ledger.ensureAccount(accountId, tx);
        // One creation at a time per account: the name check and the first-subscription rule see every earlier one.
        await ledger.lockAccount(accountId, tx);
        if (await repo.nameTaken(accountId, input.subscription_name, tx)) {
          throw conflict('SUBSCRIPTION_NAME_TAKEN', MESSAGES.subscriptionNameTaken);
        }
        const isFirst = (await repo.countEverCreated(accountId, tx)) === 0;
        const id = await repo.insert(
          {
            accountId,
            name: input.subscription_name,
            remark: input.remark,
            type: input.subscription_type,
            createdByUserId: userId,
            createdAt: clock.now(),
          },
          tx,
        );
        if (isFirst) {
          await ledger.grantFreeCredits(
            {
              subscriptionId: id,
              amountCents: SIGN_UP_CREDIT_CENTS,
              // Once per account, whatever happens to its subscriptions later.
              idempotencyKey: `sign-up-credits:${accountId}`,
              description: 'Sign-up free credits',
            },
            tx,
          );
        }
        return id;
      });
    },

    /** Deletes a subscription without clusters; its ledger stays for the record. */
    async delete(accountId: string, subscriptionId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await repo.lockForAccount(accountId, subscriptionId, tx);
        if (!row) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
        if (row.activeClusterCount > 0) throw businessRule('SUBSCRIPTION_HAS_CLUSTERS', MESSAGES.subscriptionHasClusters);
        await repo.markDeleted(row.id, clock.now(), tx);
      });
    },

    /**
     * The clusters port: the clusters module calls this in the transaction that creates (+1) or finishes
     * deleting (-1) a cluster, so the count that guards deletion is always the real one.
     */
    async adjustActiveClusterCount(subscriptionId: string, delta: 1 | -1, tx?: Tx): Promise<void> {
      if (!(await repo.adjustActiveClusterCount(subscriptionId, delta, tx))) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
    },
  };
}
export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;

import {
  CENTS_PER_DOLLAR,
  MESSAGES,
  SIGN_UP_CREDIT_USD,
  centsToAmount,
  subscriptionHasClustersMessage,
  subscriptionHasFundsMessage,
  type BlockingCluster,
  type CreateSubscriptionRequest,
  type DeleteSubscriptionError,
  type Subscription,
  type SubscriptionStatus,
  type SubscriptionType,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { AppError, businessRule, conflict, notFound } from '../../errors.js';
import type { Ledger } from '../ledger/index.js';
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

/** The live clusters of some subscriptions, as the clusters module reports them (in the caller's transaction when given). */
export type ClusterDirectory = (
  subscriptionIds: string[],
  tx?: Tx,
) => Promise<{ subscriptionId: string; id: string; name: string; status: string }[]>;

/** 422 SUBSCRIPTION_HAS_CLUSTERS naming the clusters, which the response also lists for the console's links. */
export class SubscriptionHasClustersError extends AppError {
  constructor(readonly clusters: BlockingCluster[]) {
    super(422, 'SUBSCRIPTION_HAS_CLUSTERS', subscriptionHasClustersMessage(clusters.map((cluster) => cluster.cluster_name)));
  }

  override toResponse(): DeleteSubscriptionError {
    return { ...super.toResponse(), clusters: this.clusters };
  }
}

export function createSubscriptionsService(deps: {
  db: Database;
  subscriptionsRepository: SubscriptionsRepository;
  ledger: Ledger;
  clock: Clock;
}) {
  const { db, subscriptionsRepository: repo, ledger, clock } = deps;
  // The clusters module depends on this one, so it hands in its directory once both exist (services.ts).
  let clusterDirectory: ClusterDirectory | undefined;

  async function present(rows: SubscriptionRow[]): Promise<Subscription[]> {
    const summaries = await ledger.summaries(rows.map((row) => row.id));
    const clusterRows = clusterDirectory ? await clusterDirectory(rows.map((row) => row.id)) : [];
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
        clusters: clusterRows
          .filter((cluster) => cluster.subscriptionId === row.id)
          .map((cluster) => ({ deployment_id: cluster.id, cluster_name: cluster.name, status: cluster.status })),
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

    attachClusterDirectory(directory: ClusterDirectory): void {
      clusterDirectory = directory;
    },

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

    /**
     * Deletes a subscription without clusters; its ledger stays for the record. Paid funds are never lost:
     * with paid funds left, it is refused unless `transferTo` names another active subscription of the
     * account, which receives them through a ledger transfer in the same transaction. Free credits stay
     * behind and end with the subscription.
     */
    async delete(
      accountId: string,
      subscriptionId: string,
      options: { transferTo?: string; actorUserId?: string } = {},
    ): Promise<{ transferredCents: number }> {
      const { transferTo } = options;
      return db.transaction(async (tx) => {
        if (transferTo === subscriptionId) throw businessRule('TRANSFER_TARGET_INVALID', MESSAGES.transferTargetInvalid);
        // Both rows locked in id order, so two opposite transfers cannot deadlock.
        const ids = transferTo ? [subscriptionId, transferTo].sort() : [subscriptionId];
        const locked = new Map<string, Awaited<ReturnType<typeof repo.lockForAccount>>>();
        for (const id of ids) locked.set(id, await repo.lockForAccount(accountId, id, tx));
        const row = locked.get(subscriptionId);
        if (!row) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
        // Another account's subscription, or a deleted one, is as unknown as one that never existed.
        if (transferTo && !locked.get(transferTo)) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
        // Under the row lock every cluster created in it has committed (creation takes the same lock) and none can follow.
        const live = clusterDirectory ? await clusterDirectory([row.id], tx) : [];
        if (live.length > 0 || row.activeClusterCount > 0) {
          throw new SubscriptionHasClustersError(live.map((cluster) => ({ deployment_id: cluster.id, cluster_name: cluster.name })));
        }

        let transferredCents = 0;
        const paidCents = await ledger.paidFunds(row.id, tx);
        if (paidCents > 0) {
          if (!transferTo) throw businessRule('SUBSCRIPTION_HAS_FUNDS', subscriptionHasFundsMessage(paidCents));
          const moved = await ledger.transferPaidFunds(
            {
              fromSubscriptionId: row.id,
              toSubscriptionId: transferTo,
              idempotencyKey: `subscription-delete:${row.id}`,
              actorUserId: options.actorUserId,
            },
            tx,
          );
          transferredCents = moved.amountCents;
        }
        await repo.markDeleted(row.id, clock.now(), tx);
        return { transferredCents };
      });
    },

    /**
     * The clusters port for creating a cluster: locks the live subscription of the account for the rest of the
     * caller's transaction and counts the new cluster in it. A deletion holds the same lock, so a cluster is created
     * either before it (which the deletion then sees and refuses) or not at all (the subscription is gone: 404).
     */
    async holdForNewCluster(accountId: string, subscriptionId: string, tx: Tx): Promise<SubscriptionRow> {
      const locked = await repo.lockForAccount(accountId, subscriptionId, tx);
      if (!locked) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
      await repo.adjustActiveClusterCount(subscriptionId, 1, tx);
      return requireOwned(accountId, subscriptionId, tx);
    },

    /**
     * The clusters port: the clusters module calls this in the transaction that finishes deleting a cluster (-1);
     * creation counts through holdForNewCluster (+1). The count is shown with the subscription and guards deletion.
     */
    async adjustActiveClusterCount(subscriptionId: string, delta: 1 | -1, tx?: Tx): Promise<void> {
      if (!(await repo.adjustActiveClusterCount(subscriptionId, delta, tx))) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
    },
  };
}
export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;

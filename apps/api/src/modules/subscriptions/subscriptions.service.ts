import {
  CENTS_PER_DOLLAR,
  MESSAGES,
  SIGN_UP_CREDIT_USD,
  subscriptionHasClustersMessage,
  subscriptionHasFundsMessage,
  type BlockingCluster,
  type CreateSubscriptionRequest,
  type DeleteSubscriptionError,
  type SubscriptionStatus,
  type SubscriptionType,
} from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Database, Tx } from '../../db/client.js';
import { AppError, businessRule, conflict, notFound } from '../../errors.js';
import type { Ledger } from '../ledger/index.js';
import type { SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';

const SIGN_UP_CREDIT_CENTS = SIGN_UP_CREDIT_USD * CENTS_PER_DOLLAR;

/** The live clusters of some subscriptions, as the clusters module reports them (in the caller's transaction when given). */
export type ClusterDirectory = (
  subscriptionIds: string[],
  tx?: Tx,
) => Promise<{ subscriptionId: string; id: string; name: string; status: string }[]>;

/**
 * A step other modules run in a deletion's transaction, under the subscription's row lock: it refuses the deletion by
 * throwing, or winds down what the module keeps for the subscription.
 */
export type DeletionStep = (subscriptionId: string, tx: Tx) => Promise<void>;

/**
 * What each subscription has used this UTC month and what the month will come to, in cents: metering's month spend,
 * the one the budgets and the cost overview read. Metering depends on this module, so services.ts hands it in once
 * both exist.
 */
export type MonthSpends = (
  accountId: string,
  subscriptionIds: string[],
) => Promise<Map<string, { consumedCents: number; forecastCents: number }>>;

/** A subscription as the screens show it: with what it used this month and the month's forecast. */
export type SubscriptionWithMonth = SubscriptionSummary & { consumedCents: number; forecastCents: number };

/** A live subscription as other modules and the routes receive it: cents, dates and ids. */
export interface SubscriptionSummary {
  id: string;
  name: string;
  type: SubscriptionType;
  remark: string;
  status: SubscriptionStatus;
  /** Paid funds plus unexpired free credits minus usage. */
  balanceCents: number;
  /** Unexpired free credits still to spend (part of the balance). */
  freeCreditsCents: number;
  /** When the next free credits expire, if any are left. */
  creditsExpireAt: Date | null;
  activeClusterCount: number;
  /** Its clusters that are not deleted, oldest first. */
  clusters: { id: string; name: string; status: string }[];
  createdByName: string;
  createdByEmail: string;
  createdAt: Date;
}

/** A subscription's name and balance, with the unexpired free credits that are part of it. */
export type SubscriptionBalance = Pick<SubscriptionSummary, 'id' | 'name' | 'balanceCents' | 'freeCreditsCents'>;

/** 422 SUBSCRIPTION_HAS_CLUSTERS naming the clusters, which the response also lists for the console's links. */
export class SubscriptionHasClustersError extends AppError {
  constructor(readonly clusters: BlockingCluster[]) {
    super(422, 'SUBSCRIPTION_HAS_CLUSTERS', subscriptionHasClustersMessage(clusters.map((cluster) => cluster.cluster_name)));
  }

  override toResponse(): DeleteSubscriptionError {
    return { ...super.toResponse(), clusters: this.clusters };
  }
}

export function createSubscriptionsService(deps: { db: Database; repository: SubscriptionsRepository; ledger: Ledger; clock: Clock }) {
  const { db, repository, ledger, clock } = deps;
  // The clusters and metering modules depend on this one, so they hand in their ports once all exist (services.ts).
  let clusterDirectory: ClusterDirectory | undefined;
  let monthSpends: MonthSpends | undefined;
  const deletionSteps: DeletionStep[] = [];

  async function summarise(rows: SubscriptionRow[]): Promise<SubscriptionSummary[]> {
    const ids = rows.map((row) => row.id);
    const [summaries, clusterRows] = await Promise.all([ledger.summaries(ids), clusterDirectory ? clusterDirectory(ids) : []]);
    return rows.map((row) => {
      const summary = summaries.get(row.id);
      return {
        id: row.id,
        name: row.name,
        type: row.type as SubscriptionType,
        remark: row.remark,
        status: row.status as SubscriptionStatus,
        balanceCents: row.balanceCents,
        freeCreditsCents: summary?.freeCreditsCents ?? 0,
        creditsExpireAt: summary?.nextCreditExpiry ?? null,
        activeClusterCount: row.activeClusterCount,
        clusters: clusterRows
          .filter((cluster) => cluster.subscriptionId === row.id)
          .map((cluster) => ({ id: cluster.id, name: cluster.name, status: cluster.status })),
        createdByName: row.createdByName,
        createdByEmail: row.createdByEmail,
        createdAt: row.createdAt,
      };
    });
  }

  /** The subscriptions with metering's spend of this month, both read at once (nothing used until metering is attached). */
  async function withMonthSpend(accountId: string, rows: SubscriptionRow[]): Promise<SubscriptionWithMonth[]> {
    const [list, spends] = await Promise.all([
      summarise(rows),
      monthSpends
        ? monthSpends(
            accountId,
            rows.map((row) => row.id),
          )
        : new Map<string, { consumedCents: number; forecastCents: number }>(),
    ]);
    return list.map((subscription) => ({
      ...subscription,
      consumedCents: spends.get(subscription.id)?.consumedCents ?? 0,
      forecastCents: spends.get(subscription.id)?.forecastCents ?? 0,
    }));
  }

  async function requireOwned(accountId: string, subscriptionId: string, tx?: Tx): Promise<SubscriptionRow> {
    const row = await repository.findForAccount(accountId, subscriptionId, tx);
    // Another account's subscription is as unknown as one that never existed.
    if (!row) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
    return row;
  }

  return {
    requireOwned,

    attachClusterDirectory(directory: ClusterDirectory): void {
      clusterDirectory = directory;
    },

    attachMonthSpends(spends: MonthSpends): void {
      monthSpends = spends;
    },

    /** Modules that depend on this one (automatic top-up) have their say in a deletion; attached by services.ts. */
    attachDeletionStep(step: DeletionStep): void {
      deletionSteps.push(step);
    },

    /** The account's live subscriptions, oldest first. */
    list: async (accountId: string) => summarise(await repository.listForAccount(accountId)),

    /**
     * The account's live subscriptions with their balances only, oldest first: what the cost overview reads, without
     * the clusters the full list lists.
     */
    async balances(accountId: string): Promise<SubscriptionBalance[]> {
      const rows = await repository.listForAccount(accountId);
      const summaries = await ledger.summaries(rows.map((row) => row.id));
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        balanceCents: row.balanceCents,
        freeCreditsCents: summaries.get(row.id)?.freeCreditsCents ?? 0,
      }));
    },

    /** The list as the screens show it: each subscription with its month's spend and forecast. */
    listWithMonthSpend: async (accountId: string) => withMonthSpend(accountId, await repository.listForAccount(accountId)),

    /** One subscription of the account with its month's spend and forecast; another account's is a 404. */
    async detailsWithMonthSpend(accountId: string, subscriptionId: string) {
      const [subscription] = await withMonthSpend(accountId, [await requireOwned(accountId, subscriptionId)]);
      return subscription!;
    },

    /** Creates a prepaid subscription; the account's first one ever comes with the sign-up free credits. */
    async create(accountId: string, userId: string, input: Required<CreateSubscriptionRequest>): Promise<string> {
      return db.transaction(async (tx) => {
        await ledger.ensureAccount(accountId, tx);
        // One creation at a time per account: the name check and the first-subscription rule see every earlier one.
        await ledger.lockAccount(accountId, tx);
        if (await repository.nameTaken(accountId, input.subscription_name, tx)) {
          throw conflict('SUBSCRIPTION_NAME_TAKEN', MESSAGES.subscriptionNameTaken);
        }
        const isFirst = (await repository.countEverCreated(accountId, tx)) === 0;
        const id = await repository.insert(
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
        const locked = new Map<string, Awaited<ReturnType<typeof repository.lockForAccount>>>();
        for (const id of ids) locked.set(id, await repository.lockForAccount(accountId, id, tx));
        const row = locked.get(subscriptionId);
        if (!row) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
        // Another account's subscription, or a deleted one, is as unknown as one that never existed.
        if (transferTo && !locked.get(transferTo)) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
        // Under the row lock every cluster created in it has committed (creation takes the same lock) and none can follow.
        const live = clusterDirectory ? await clusterDirectory([row.id], tx) : [];
        if (live.length > 0 || row.activeClusterCount > 0) {
          throw new SubscriptionHasClustersError(live.map((cluster) => ({ deployment_id: cluster.id, cluster_name: cluster.name })));
        }
        for (const step of deletionSteps) await step(row.id, tx);

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
        await repository.markDeleted(row.id, clock.now(), tx);
        return { transferredCents };
      });
    },

    /**
     * The clusters port for creating a cluster: locks the live subscription of the account for the rest of the
     * caller's transaction and counts the new cluster in it. A deletion holds the same lock, so a cluster is created
     * either before it (which the deletion then sees and refuses) or not at all (the subscription is gone: 404).
     */
    async holdForNewCluster(accountId: string, subscriptionId: string, tx: Tx): Promise<SubscriptionRow> {
      const locked = await repository.lockForAccount(accountId, subscriptionId, tx);
      if (!locked) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
      await repository.adjustActiveClusterCount(subscriptionId, 1, tx);
      return requireOwned(accountId, subscriptionId, tx);
    },

    /**
     * The clusters port for starting a cluster (or growing one): locks the live subscription of the account for the
     * rest of the caller's transaction, the lock a create takes, so the starts and creates in it are checked against
     * the budget one after another, each seeing what the one before let run.
     */
    async holdForClusterStart(accountId: string, subscriptionId: string, tx: Tx): Promise<SubscriptionRow> {
      if (!(await repository.lockForAccount(accountId, subscriptionId, tx))) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
      return requireOwned(accountId, subscriptionId, tx);
    },

    /**
     * The clusters port: the clusters module calls this in the transaction that finishes deleting a cluster (-1);
     * creation counts through holdForNewCluster (+1). The count is shown with the subscription and guards deletion.
     */
    async adjustActiveClusterCount(subscriptionId: string, delta: 1 | -1, tx?: Tx): Promise<void> {
      if (!(await repository.adjustActiveClusterCount(subscriptionId, delta, tx)))
        throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
    },
  };
}
export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;

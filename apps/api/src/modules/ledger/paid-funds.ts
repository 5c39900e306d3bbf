import { MESSAGES } from '@kumo/contract';
import type { Clock } from '../../clock.js';
import type { Tx } from '../../db/client.js';
import { badRequest, notFound } from '../../errors.js';
import type { LedgerRepository } from './ledger.repository.js';
import type { LedgerPosting } from './posting.js';

/** A subscription's paid funds (its balance less unexpired free credits): what they are, and moving them elsewhere. */
export function createPaidFunds(deps: {
  repository: Pick<LedgerRepository, 'lockSubscription' | 'findEntryByKey' | 'setBalance'>;
  posting: LedgerPosting;
  clock: Clock;
}) {
  const { repository, clock } = deps;
  const { inTransaction, expireDue, post } = deps.posting;

  return {
    /**
     * Moves a subscription's paid funds (never its free credits, which cannot leave the subscription they were
     * granted to) to another subscription: both entries in one transaction under both row locks, taken in id
     * order so two opposite transfers cannot deadlock. The key makes a retry move nothing twice.
     * Returns the cents moved (0 when there were no paid funds).
     */
    async transferPaidFunds(
      transfer: { fromSubscriptionId: string; toSubscriptionId: string; idempotencyKey: string; actorUserId?: string | null },
      tx?: Tx,
    ): Promise<{ amountCents: number; duplicate: boolean }> {
      const { fromSubscriptionId: from, toSubscriptionId: to, idempotencyKey: key } = transfer;
      if (from === to) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      return inTransaction(tx, async (tx) => {
        for (const id of [from, to].sort()) {
          if (!(await repository.lockSubscription(id, tx))) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
        }
        const done = await repository.findEntryByKey(`${key}:out`, tx);
        if (done) return { amountCents: -done.amountCents, duplicate: true };
        const source = (await repository.lockSubscription(from, tx))!;
        const { balance, open } = await expireDue(from, source.balanceCents, clock.now(), tx);
        if (balance !== source.balanceCents) await repository.setBalance(from, balance, tx);
        const paidCents = balance - open.reduce((sum, grant) => sum + grant.remainingCents, 0);
        if (paidCents <= 0) return { amountCents: 0, duplicate: false };
        const common = { amountCents: paidCents, actorUserId: transfer.actorUserId ?? null };
        await post(
          { ...common, subscriptionId: from, idempotencyKey: `${key}:out` },
          'TRANSFER_OUT',
          async () => ({
            kind: 'TRANSFER_OUT',
            category: 'TRANSFER_OUT',
            amountCents: -paidCents,
            description: 'Paid funds moved to another subscription',
          }),
          tx,
        );
        await post(
          { ...common, subscriptionId: to, idempotencyKey: `${key}:in` },
          'TRANSFER_IN',
          async () => ({
            kind: 'TRANSFER_IN',
            category: 'TRANSFER_IN',
            amountCents: paidCents,
            description: 'Paid funds moved from another subscription',
          }),
          tx,
        );
        return { amountCents: paidCents, duplicate: false };
      });
    },

    /** Paid funds of a subscription: its balance less unexpired free credits (0 or less when it owes). */
    async paidFunds(subscriptionId: string, tx?: Tx): Promise<number> {
      return inTransaction(tx, async (tx) => {
        const subscription = await repository.lockSubscription(subscriptionId, tx);
        if (!subscription) throw notFound('NOT_FOUND', MESSAGES.subscriptionNotFound);
        const { balance, open } = await expireDue(subscription.id, subscription.balanceCents, clock.now(), tx);
        if (balance !== subscription.balanceCents) await repository.setBalance(subscription.id, balance, tx);
        return balance - open.reduce((sum, grant) => sum + grant.remainingCents, 0);
      });
    },
  };
}

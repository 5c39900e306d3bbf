import { MESSAGES } from '@kumo/contract';
import type { Tx } from '../../db/client.js';
import { businessRule, notFound } from '../../errors.js';
import type { LedgerRepository } from './ledger.repository.js';
import type { LedgerPosting, Posting } from './posting.js';
import { planCreditSpend } from './spend-plan.js';

/** Money leaving a subscription: metered usage (free credits first) and refunds of a purchase to the card. */
export function createFundsOut(deps: {
  repository: Pick<LedgerRepository, 'overdueLimit' | 'insertAllocations' | 'setGrantRemaining' | 'findEntry' | 'refundedFrom'>;
  posting: Pick<LedgerPosting, 'post'>;
}) {
  const { repository } = deps;
  const { post } = deps.posting;

  return {
    /**
     * Metered usage: unexpired free credits first (earliest-expiring first), then paid funds, down to minus the overdue
     * limit. `usedAlready`: the hours were used and must be recorded even past that limit (metering; the overdue guard
     * then stops the clusters).
     */
    debitUsage: (posting: Posting & { usedAlready?: boolean }, tx?: Tx) =>
      post(
        posting,
        'USAGE',
        async ({ accountId, balanceCents, openGrants, now, tx }) => {
          const limit = await repository.overdueLimit(accountId, tx);
          if (!posting.usedAlready && balanceCents - posting.amountCents < -limit) {
            throw businessRule('INSUFFICIENT_FUNDS', MESSAGES.insufficientFunds);
          }
          const plan = planCreditSpend(openGrants, posting.amountCents, now);
          return {
            kind: 'USAGE',
            category: 'USAGE',
            amountCents: -posting.amountCents,
            description: 'Service usage',
            after: async (entry, tx) => {
              await repository.insertAllocations(
                plan.allocations.map((allocation) => ({ entryId: entry.id, ...allocation })),
                tx,
              );
              for (const allocation of plan.allocations) {
                const grant = openGrants.find((open) => open.entryId === allocation.grantEntryId)!;
                await repository.setGrantRemaining(grant.entryId, grant.remainingCents - allocation.amountCents, tx);
              }
            },
          };
        },
        tx,
      ),

    /** Returns paid money of one purchase to the card: never more than it paid, nor more than paid funds left unspent. */
    refund: (posting: Posting & { purchaseEntryId: string }, tx?: Tx) =>
      post(
        posting,
        'REFUND',
        async ({ balanceCents, openGrants, tx }) => {
          const purchase = await repository.findEntry(posting.purchaseEntryId, tx);
          if (!purchase || purchase.subscriptionId !== posting.subscriptionId || purchase.kind !== 'PURCHASE') {
            throw notFound('NOT_FOUND', MESSAGES.transactionNotFound);
          }
          const refunded = await repository.refundedFrom(purchase.id, tx);
          const credits = openGrants.reduce((sum, grant) => sum + grant.remainingCents, 0);
          const paidFunds = balanceCents - credits;
          if (posting.amountCents > purchase.amountCents - refunded || posting.amountCents > paidFunds) {
            throw businessRule('REFUND_NOT_ALLOWED', MESSAGES.refundNotAllowed);
          }
          return {
            kind: 'REFUND',
            category: 'REFUND',
            amountCents: -posting.amountCents,
            description: 'Refund to card',
            refundOfEntryId: purchase.id,
          };
        },
        tx,
      ),
  };
}

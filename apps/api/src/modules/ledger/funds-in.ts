import { FREE_CREDIT_VALIDITY_DAYS, MESSAGES, isAdminFundCategory, type AdminFundCategory } from '@kumo/contract';
import type { Tx } from '../../db/client.js';
import { DAY } from '../../clock.js';
import { badRequest } from '../../errors.js';
import type { LedgerRepository } from './ledger.repository.js';
import type { LedgerPosting, PostResult, Posting } from './posting.js';

/** Money coming into a subscription: card purchases, free credits that expire, and funds staff add. */
export function createFundsIn(deps: {
  repository: Pick<LedgerRepository, 'insertGrant'>;
  posting: Pick<LedgerPosting, 'post' | 'postMany'>;
}) {
  const { repository } = deps;
  const { post, postMany } = deps.posting;
  const purchaseDraft = (posting: Posting) =>
    ({ kind: 'PURCHASE', category: 'PURCHASED', amountCents: posting.amountCents, description: 'Funds added by card' }) as const;

  return {
    /** A card payment the payment provider confirmed. */
    postPurchase: (posting: Posting, tx?: Tx) => post(posting, 'PURCHASE', async () => purchaseDraft(posting), tx),

    /** Several confirmed card payments of one subscription, in order, in the caller's transaction (posting.ts `postMany`). */
    postPurchases: (subscriptionId: string, postings: Posting[], tx: Tx) =>
      postMany(subscriptionId, postings, 'PURCHASE', purchaseDraft, tx),

    /** Free credits that expire after `validDays` (30 unless told). */
    grantFreeCredits: async (posting: Posting & { validDays?: number }, tx?: Tx): Promise<PostResult> => {
      const validDays = posting.validDays ?? FREE_CREDIT_VALIDITY_DAYS;
      if (!Number.isInteger(validDays) || validDays < 1) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      return post(
        posting,
        'FREE_CREDIT_GRANT',
        async ({ now }) => ({
          kind: 'FREE_CREDIT_GRANT',
          category: 'FREE_CREDITS',
          amountCents: posting.amountCents,
          description: 'Free credits',
          after: async (entry, tx) =>
            repository.insertGrant(
              {
                entryId: entry.id,
                subscriptionId: posting.subscriptionId,
                amountCents: posting.amountCents,
                remainingCents: posting.amountCents,
                expiresAt: new Date(now.getTime() + validDays * DAY),
              },
              tx,
            ),
        }),
        tx,
      );
    },

    /** Funds staff add, with the reason as its category (e.g. REFUND_MAINTENANCE_COST). They do not expire. */
    addAdminFunds: async (posting: Posting & { category: AdminFundCategory }, tx?: Tx): Promise<PostResult> => {
      if (!isAdminFundCategory(posting.category)) throw badRequest('VALIDATION_FAILED', MESSAGES.validationFailed);
      return post(
        posting,
        'ADMIN_FUNDS',
        async () => ({
          kind: 'ADMIN_FUNDS',
          category: posting.category,
          amountCents: posting.amountCents,
          description: 'Funds added by Kumo Cloud',
        }),
        tx,
      );
    },
  };
}

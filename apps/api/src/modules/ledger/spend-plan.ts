export interface SpendableGrant {
  entryId: string;
  remainingCents: number;
  expiresAt: Date;
}

export interface SpendPlan {
  allocations: { grantEntryId: string; amountCents: number }[];
  /** The part of the debit the free credits do not cover: it comes out of paid funds. */
  fromPaidCents: number;
}

/**
 * Splits a debit over free credits: only grants still valid at `now`, earliest-expiring first (ties in
 * the order given), then paid funds. Pure, so the rule is tested on its own and replayed by the property test.
 */
export function planCreditSpend(grants: readonly SpendableGrant[], amountCents: number, now: Date): SpendPlan {
  const usable = grants
    .map((grant, order) => ({ grant, order }))
    .filter(({ grant }) => grant.remainingCents > 0 && grant.expiresAt.getTime() > now.getTime())
    .sort((a, b) => a.grant.expiresAt.getTime() - b.grant.expiresAt.getTime() || a.order - b.order);
  const allocations: SpendPlan['allocations'] = [];
  let left = amountCents;
  for (const { grant } of usable) {
    if (left === 0) break;
    const take = Math.min(left, grant.remainingCents);
    allocations.push({ grantEntryId: grant.entryId, amountCents: take });
    left -= take;
  }
  return { allocations, fromPaidCents: left };
}

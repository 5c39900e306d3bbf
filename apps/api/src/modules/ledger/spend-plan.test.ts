import { describe, expect, it } from 'vitest';
import { planCreditSpend } from './spend-plan.js';

const now = new Date('2026-03-10T00:00:00Z');
const day = (n: number) => new Date(now.getTime() + n * 86_400_000);

describe('spending free credits', () => {
  it('takes the earliest-expiring grant first, then the next, then paid funds', () => {
    const plan = planCreditSpend(
      [
        { entryId: 'late', remainingCents: 5000, expiresAt: day(20) },
        { entryId: 'soon', remainingCents: 3000, expiresAt: day(2) },
      ],
      10_000,
      now,
    );
    expect(plan).toEqual({
      allocations: [
        { grantEntryId: 'soon', amountCents: 3000 },
        { grantEntryId: 'late', amountCents: 5000 },
      ],
      fromPaidCents: 2000,
    });
  });

  it('never touches a grant whose expiry has come, nor an empty one', () => {
    const plan = planCreditSpend(
      [
        { entryId: 'expired', remainingCents: 5000, expiresAt: now },
        { entryId: 'empty', remainingCents: 0, expiresAt: day(1) },
        { entryId: 'valid', remainingCents: 100, expiresAt: day(1) },
      ],
      250,
      now,
    );
    expect(plan).toEqual({ allocations: [{ grantEntryId: 'valid', amountCents: 100 }], fromPaidCents: 150 });
  });

  it('keeps the given order for grants expiring at the same instant', () => {
    const plan = planCreditSpend(
      [
        { entryId: 'first', remainingCents: 100, expiresAt: day(3) },
        { entryId: 'second', remainingCents: 100, expiresAt: day(3) },
      ],
      150,
      now,
    );
    expect(plan.allocations.map((allocation) => allocation.grantEntryId)).toEqual(['first', 'second']);
  });

  it('stops as soon as the credits cover the debit', () => {
    const plan = planCreditSpend([{ entryId: 'a', remainingCents: 1000, expiresAt: day(1) }], 400, now);
    expect(plan).toEqual({ allocations: [{ grantEntryId: 'a', amountCents: 400 }], fromPaidCents: 0 });
  });
});

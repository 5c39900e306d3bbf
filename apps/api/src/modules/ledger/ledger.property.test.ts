import { asc, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR } from '../../clock.js';
import { creditAllocations, creditGrants, ledgerEntries, subscriptions } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { startTestApp, type TestContext } from '../../../test/support/harness.js';
import { newCustomer, newSubscription } from '../../../test/support/money.js';
import type { PostResult } from './ledger.service.js';

/**
 * Random interleavings of every ledger operation, many of them concurrent, and after each run the
 * invariants: balance = sum of entries (at every step), one entry per idempotency key, credits never
 * spent after their expiry, and credits spent before paid funds (earliest-expiring first).
 */

const SUBSCRIPTIONS = 3;
const KEYS = 4;

type Operation =
  | { op: 'purchase' | 'admin' | 'usage'; sub: number; cents: number; key: number }
  | { op: 'grant'; sub: number; cents: number; days: number; key: number }
  | { op: 'refund'; sub: number; cents: number; key: number; purchase: number }
  | { op: 'expire' };
type Step = { batch: Operation[] } | { advanceHours: number };

const sub = fc.integer({ min: 0, max: SUBSCRIPTIONS - 1 });
const cents = fc.integer({ min: 1, max: 60_000 });
const keyIndex = fc.integer({ min: 0, max: KEYS - 1 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('purchase' as const), sub, cents, key: keyIndex }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('admin' as const), sub, cents, key: keyIndex }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('usage' as const), sub, cents, key: fc.integer({ min: 0, max: 40 }) }), weight: 5 },
  {
    arbitrary: fc.record({ op: fc.constant('grant' as const), sub, cents, days: fc.integer({ min: 1, max: 10 }), key: keyIndex }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ op: fc.constant('refund' as const), sub, cents, key: keyIndex, purchase: fc.integer({ min: 0, max: 3 }) }),
    weight: 1,
  },
  { arbitrary: fc.constant({ op: 'expire' as const }), weight: 1 },
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ batch: fc.array(operation, { minLength: 1, maxLength: 10 }) }), weight: 4 },
  { arbitrary: fc.record({ advanceHours: fc.integer({ min: 1, max: 24 * 6 }) }), weight: 1 },
);
const scenario = fc.record({
  overdueLimitCents: fc.constantFrom(0, 0, 5_000, 25_000),
  steps: fc.array(step, { minLength: 2, maxLength: 8 }),
});

/** Refusals the rules call for; anything else thrown is a failure of the ledger. */
const EXPECTED_REFUSALS = new Set(['INSUFFICIENT_FUNDS', 'REFUND_NOT_ALLOWED', 'NOT_FOUND']);

const kinds = await databaseKinds();
let runCounter = 0;

describe.each(kinds)('ledger properties on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind);
  });
  afterAll(() => ctx.close());

  async function execute(steps: Step[], overdueLimitCents: number) {
    const run = ++runCounter;
    const customer = await newCustomer(ctx);
    const subs: string[] = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++) subs.push(await newSubscription(ctx, customer, `Prop ${run} ${i}`));
    await ctx.services.ledger.setOverdueLimit(customer.accountId, overdueLimitCents);
    const postedByKey = new Map<string, Set<string>>();
    const unexpected: unknown[] = [];
    const ledger = ctx.services.ledger;

    const perform = async (operation: Operation): Promise<PostResult | undefined> => {
      if (operation.op === 'expire') {
        await ledger.expireDueCredits();
        return undefined;
      }
      const subscriptionId = subs[operation.sub]!;
      const idempotencyKey = `${run}:${operation.op}:${operation.sub}:${operation.key}`;
      const posting = { subscriptionId, amountCents: operation.cents, idempotencyKey };
      switch (operation.op) {
        case 'purchase':
          return ledger.postPurchase(posting);
        case 'admin':
          return ledger.addAdminFunds({ ...posting, category: 'REFUND_MAINTENANCE_COST' });
        case 'usage':
          return ledger.debitUsage(posting);
        case 'grant':
          return ledger.grantFreeCredits({ ...posting, validDays: operation.days });
        case 'refund': {
          const purchases = await ctx.database.db
            .select({ id: ledgerEntries.id })
            .from(ledgerEntries)
            .where(sql`${ledgerEntries.subscriptionId} = ${subscriptionId} and ${ledgerEntries.kind} = 'PURCHASE'`)
            .orderBy(asc(ledgerEntries.seq));
          const target = purchases[operation.purchase % Math.max(1, purchases.length)];
          if (!target) return undefined;
          return ledger.refund({ ...posting, purchaseEntryId: target.id });
        }
      }
    };

    for (const current of steps) {
      if ('advanceHours' in current) {
        ctx.clock.advance(current.advanceHours * HOUR);
        continue;
      }
      const outcomes = await Promise.allSettled(current.batch.map(perform));
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          const error: unknown = outcome.reason;
          if (!(error instanceof AppError && EXPECTED_REFUSALS.has(error.code))) unexpected.push(error);
        } else if (outcome.value) {
          const { entry } = outcome.value;
          const ids = postedByKey.get(entry.idempotencyKey) ?? new Set<string>();
          ids.add(entry.id);
          postedByKey.set(entry.idempotencyKey, ids);
        }
      }
    }
    return { subs, postedByKey, unexpected };
  }

  async function checkInvariants(subs: string[], postedByKey: Map<string, Set<string>>, overdueLimitCents: number) {
    const db = ctx.database.db;
    const entries = await db
      .select()
      .from(ledgerEntries)
      .where(inArray(ledgerEntries.subscriptionId, subs))
      .orderBy(asc(ledgerEntries.seq));
    const grants = await db.select().from(creditGrants).where(inArray(creditGrants.subscriptionId, subs));
    const allocations = entries.length
      ? await db
          .select()
          .from(creditAllocations)
          .where(
            inArray(
              creditAllocations.entryId,
              entries.map((entry) => entry.id),
            ),
          )
      : [];
    const rows = await db.select().from(subscriptions).where(inArray(subscriptions.id, subs));

    // Idempotency: a key maps to one entry, however often and concurrently it was posted.
    for (const [key, ids] of postedByKey) expect(ids.size, `key ${key}`).toBe(1);
    const keys = entries.map((entry) => entry.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);

    const grantById = new Map(grants.map((grant) => [grant.entryId, grant]));
    for (const subscriptionId of subs) {
      const own = entries.filter((entry) => entry.subscriptionId === subscriptionId);
      const stored = rows.find((row) => row.id === subscriptionId)!.balanceCents;
      // The balance equals the sum of the entries, and did so after every single entry.
      expect(stored).toBe(own.reduce((sum, entry) => sum + entry.amountCents, 0));
      let running = 0;
      const remaining = new Map<string, number>();
      for (const entry of own) {
        running += entry.amountCents;
        expect(entry.balanceAfterCents).toBe(running);
        const at = entry.createdAt.getTime();
        const mine = allocations.filter((allocation) => allocation.entryId === entry.id);

        if (entry.kind === 'FREE_CREDIT_GRANT') remaining.set(entry.id, entry.amountCents);
        if (entry.kind === 'CREDIT_EXPIRY') {
          expect(mine).toHaveLength(1);
          const grant = grantById.get(mine[0]!.grantEntryId)!;
          expect(at).toBeGreaterThanOrEqual(grant.expiresAt.getTime());
          expect(-entry.amountCents).toBe(remaining.get(grant.entryId));
          remaining.set(grant.entryId, 0);
        }
        if (entry.kind === 'USAGE') {
          expect(entry.balanceAfterCents).toBeGreaterThanOrEqual(-overdueLimitCents);
          const valid = [...remaining.entries()]
            .map(([id, left]) => ({ grant: grantById.get(id)!, left }))
            .filter(({ grant }) => grant.expiresAt.getTime() > at);
          for (const allocation of mine) {
            const grant = grantById.get(allocation.grantEntryId)!;
            // Credits are never spent once their expiry has come.
            expect(at).toBeLessThan(grant.expiresAt.getTime());
            remaining.set(grant.entryId, remaining.get(grant.entryId)! - allocation.amountCents);
            expect(remaining.get(grant.entryId)).toBeGreaterThanOrEqual(0);
          }
          const leftAfter = (id: string) => remaining.get(id)!;
          const fromPaid = -entry.amountCents - mine.reduce((sum, allocation) => sum + allocation.amountCents, 0);
          // Paid funds are touched only once every valid credit is used up.
          if (fromPaid > 0) for (const { grant } of valid) expect(leftAfter(grant.entryId)).toBe(0);
          // A later-expiring grant is drawn on only when every earlier-expiring one is empty.
          for (const allocation of mine) {
            const drawn = grantById.get(allocation.grantEntryId)!;
            for (const { grant } of valid) {
              if (grant.expiresAt.getTime() < drawn.expiresAt.getTime()) expect(leftAfter(grant.entryId)).toBe(0);
            }
          }
        }
      }
      // What each grant has left is exactly its amount minus everything drawn from it.
      for (const grant of grants.filter((row) => row.subscriptionId === subscriptionId)) {
        expect(grant.remainingCents).toBe(remaining.get(grant.entryId));
      }
    }
  }

  it('keeps every invariant under random concurrent interleavings', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ steps, overdueLimitCents }) => {
        const { subs, postedByKey, unexpected } = await execute(steps, overdueLimitCents);
        expect(unexpected).toEqual([]);
        await checkInvariants(subs, postedByKey, overdueLimitCents);
      }),
      { numRuns: kind === 'postgres' ? 40 : 25, endOnFailure: true },
    );
  });

  it('credits a burst of the same key exactly once', async () => {
    const customer = await newCustomer(ctx);
    const subscriptionId = await newSubscription(ctx, customer);
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        ctx.services.ledger.postPurchase({ subscriptionId, amountCents: 999, idempotencyKey: `burst:${subscriptionId}` }),
      ),
    );
    expect(new Set(results.map((result) => result.entry.id)).size).toBe(1);
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(row!.balanceCents).toBe(50_000 + 999);
  });
});

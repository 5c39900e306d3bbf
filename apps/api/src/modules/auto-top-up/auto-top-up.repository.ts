import { and, desc, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { accountMemberDirectory, userDirectory } from '../auth/index.js';
import { autoTopUpCharges, autoTopUps } from './auto-top-up.schema.js';

export type AutoTopUpRow = typeof autoTopUps.$inferSelect;
export type ChargeRow = typeof autoTopUpCharges.$inferSelect;
export type SavedCardColumns = Pick<AutoTopUpRow, 'paymentMethodId' | 'cardBrand' | 'cardLast4' | 'cardExpMonth' | 'cardExpYear'>;

/** Charges that count against the monthly cap: the ones credited and the ones the provider has not answered yet. */
const COUNTED = ['PENDING', 'SUCCEEDED'];

/** SQL of automatic top-up: the settings and saved card per subscription, and the charges, one per subscription and hour. */
export function createAutoTopUpRepository(db: DbOrTx) {
  const settingsOf = (subscriptionId: string, tx: DbOrTx) =>
    tx.select().from(autoTopUps).where(eq(autoTopUps.subscriptionId, subscriptionId));
  const chargeOf = (key: string, tx: DbOrTx) => tx.select().from(autoTopUpCharges).where(eq(autoTopUpCharges.idempotencyKey, key));

  /** The sum of the month's charges in these statuses, in cents. */
  async function monthTotal(subscriptionId: string, month: string, statuses: string[], tx: DbOrTx): Promise<number> {
    const [row] = await tx
      .select({ total: sql<string>`coalesce(sum(${autoTopUpCharges.amountCents}), 0)` })
      .from(autoTopUpCharges)
      .where(
        and(
          eq(autoTopUpCharges.subscriptionId, subscriptionId),
          eq(autoTopUpCharges.month, month),
          inArray(autoTopUpCharges.status, statuses),
        ),
      );
    return Number(row?.total ?? 0);
  }

  return {
    async find(subscriptionId: string, tx: DbOrTx = db): Promise<AutoTopUpRow | undefined> {
      const [row] = await settingsOf(subscriptionId, tx);
      return row;
    },

    async lock(subscriptionId: string, tx: DbOrTx): Promise<AutoTopUpRow | undefined> {
      const [row] = await settingsOf(subscriptionId, tx).for('update');
      return row;
    },

    /** Creates the subscription's row with the given values, or changes the existing one. */
    async upsert(row: typeof autoTopUps.$inferInsert, tx: DbOrTx = db): Promise<void> {
      const { subscriptionId: _key, accountId: _account, ...changes } = row;
      await tx.insert(autoTopUps).values(row).onConflictDoUpdate({ target: autoTopUps.subscriptionId, set: changes });
    },

    /** Creates the subscription's row with these values unless it has one; an existing row is left as it is. */
    async insertIfAbsent(row: typeof autoTopUps.$inferInsert, tx: DbOrTx = db): Promise<void> {
      await tx.insert(autoTopUps).values(row).onConflictDoNothing({ target: autoTopUps.subscriptionId });
    },

    async update(subscriptionId: string, values: Partial<typeof autoTopUps.$inferInsert>, tx: DbOrTx = db): Promise<void> {
      await tx.update(autoTopUps).set(values).where(eq(autoTopUps.subscriptionId, subscriptionId));
    },

    /** Stores the card a setup session saved, once: a later read of the same session changes nothing. */
    async storeCard(subscriptionId: string, sessionId: string, card: SavedCardColumns, now: Date, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .update(autoTopUps)
        .set({
          ...card,
          setupSessionId: null,
          // A new card takes a paused top-up back to work.
          status: sql`case when ${autoTopUps.status} = 'PAUSED_AFTER_FAILURE' then 'ACTIVE' else ${autoTopUps.status} end`,
          updatedAt: now,
        })
        .where(and(eq(autoTopUps.subscriptionId, subscriptionId), eq(autoTopUps.setupSessionId, sessionId)))
        .returning({ id: autoTopUps.subscriptionId });
      return rows.length > 0;
    },

    /** The account's top-ups that may charge: on, with a card, not paused. */
    async activeOfAccount(accountId: string, tx: DbOrTx = db): Promise<AutoTopUpRow[]> {
      return tx
        .select()
        .from(autoTopUps)
        .where(and(eq(autoTopUps.accountId, accountId), eq(autoTopUps.status, 'ACTIVE'), isNotNull(autoTopUps.paymentMethodId)));
    },

    /** The sum of the month's charges counted against the cap. */
    countedInMonth: (subscriptionId: string, month: string, tx: DbOrTx = db) => monthTotal(subscriptionId, month, COUNTED, tx),

    /** The month's top-ups credited. */
    creditedInMonth: (subscriptionId: string, month: string, tx: DbOrTx = db) => monthTotal(subscriptionId, month, ['SUCCEEDED'], tx),

    /** Whether the subscription has a charge the provider has not answered, or one claimed after `since`. */
    async hasOpenCharge(subscriptionId: string, since: Date | null, tx: DbOrTx = db): Promise<boolean> {
      const open = since
        ? or(eq(autoTopUpCharges.status, 'PENDING'), gt(autoTopUpCharges.createdAt, since))
        : eq(autoTopUpCharges.status, 'PENDING');
      const [row] = await tx
        .select({ key: autoTopUpCharges.idempotencyKey })
        .from(autoTopUpCharges)
        .where(and(eq(autoTopUpCharges.subscriptionId, subscriptionId), open))
        .limit(1);
      return row !== undefined;
    },

    /** Claims the hour's charge; false when it was claimed already. */
    async claim(charge: typeof autoTopUpCharges.$inferInsert, tx: DbOrTx): Promise<boolean> {
      const rows = await tx
        .insert(autoTopUpCharges)
        .values(charge)
        .onConflictDoNothing()
        .returning({ key: autoTopUpCharges.idempotencyKey });
      return rows.length > 0;
    },

    /** The account's charges the provider has not answered yet, whatever its top-ups' settings say now. */
    async pendingOfAccount(accountId: string, tx: DbOrTx = db): Promise<string[]> {
      const rows = await tx
        .select({ key: autoTopUpCharges.idempotencyKey })
        .from(autoTopUpCharges)
        .innerJoin(autoTopUps, eq(autoTopUps.subscriptionId, autoTopUpCharges.subscriptionId))
        .where(and(eq(autoTopUps.accountId, accountId), eq(autoTopUpCharges.status, 'PENDING')));
      return rows.map((row) => row.key);
    },

    async findCharge(key: string, tx: DbOrTx = db): Promise<ChargeRow | undefined> {
      const [row] = await chargeOf(key, tx);
      return row;
    },

    async lockCharge(key: string, tx: DbOrTx): Promise<ChargeRow | undefined> {
      const [row] = await chargeOf(key, tx).for('update');
      return row;
    },

    /** Keeps the payment intent the provider made for a charge still pending: asked about later, never made again. */
    async notePaymentIntent(key: string, paymentIntentId: string, tx: DbOrTx = db): Promise<void> {
      await tx
        .update(autoTopUpCharges)
        .set({ paymentIntentId })
        .where(and(eq(autoTopUpCharges.idempotencyKey, key), eq(autoTopUpCharges.status, 'PENDING')));
    },

    async settleCharge(
      key: string,
      values: Pick<ChargeRow, 'status' | 'message' | 'paymentIntentId' | 'settledAt'>,
      tx: DbOrTx,
    ): Promise<void> {
      await tx.update(autoTopUpCharges).set(values).where(eq(autoTopUpCharges.idempotencyKey, key));
    },

    /** The last charge the provider answered: the settings' last attempt. */
    async lastSettled(subscriptionId: string, tx: DbOrTx = db): Promise<ChargeRow | undefined> {
      const [row] = await tx
        .select()
        .from(autoTopUpCharges)
        .where(and(eq(autoTopUpCharges.subscriptionId, subscriptionId), isNotNull(autoTopUpCharges.settledAt)))
        .orderBy(desc(autoTopUpCharges.settledAt))
        .limit(1);
      return row;
    },

    /** Marks the month's cap notice sent; false when it was already sent this month. */
    async claimCapNotice(subscriptionId: string, month: string, tx: DbOrTx): Promise<boolean> {
      const rows = await tx
        .update(autoTopUps)
        .set({ capNoticeMonth: month })
        .where(
          and(
            eq(autoTopUps.subscriptionId, subscriptionId),
            or(sql`${autoTopUps.capNoticeMonth} is null`, sql`${autoTopUps.capNoticeMonth} <> ${month}`),
          ),
        )
        .returning({ id: autoTopUps.subscriptionId });
      return rows.length > 0;
    },

    /** The account owner: the one the saved card pays for and who is told. */
    async ownerOf(accountId: string, tx: DbOrTx = db): Promise<{ userId: string; email: string } | undefined> {
      const [row] = await tx
        .select({ userId: userDirectory.id, email: userDirectory.email })
        .from(accountMemberDirectory)
        .innerJoin(userDirectory, eq(userDirectory.id, accountMemberDirectory.userId))
        .where(and(eq(accountMemberDirectory.accountId, accountId), eq(accountMemberDirectory.role, 'ACCOUNT_OWNER')));
      return row;
    },

    async emailOf(userId: string, tx: DbOrTx = db): Promise<string | undefined> {
      const [row] = await tx.select({ email: userDirectory.email }).from(userDirectory).where(eq(userDirectory.id, userId));
      return row?.email;
    },
  };
}
export type AutoTopUpRepository = ReturnType<typeof createAutoTopUpRepository>;

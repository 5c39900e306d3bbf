/** Column types the modules' schemas share. */
import { sql } from 'drizzle-orm';
import { bigint, timestamp } from 'drizzle-orm/pg-core';

export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Money in integer cents. */
export const cents = (name: string) => bigint(name, { mode: 'number' });

/**
 * A place in the one order of money events (the ledger's `money_event_seq`, shared by ledger entries and card
 * purchases): the transaction history sorts by it.
 */
export const moneyEventSeq = () =>
  bigint('seq', { mode: 'number' })
    .notNull()
    .default(sql`nextval('money_event_seq')`);

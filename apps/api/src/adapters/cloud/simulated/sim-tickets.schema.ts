/** The simulated cluster pages' record of the single-sign-on tickets they let in. */
import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { at } from '../../../db/columns.js';

/** One row per ticket redeemed, kept until it expires: a ticket opens a page once (sim-tickets.ts). */
export const simTicketUses = pgTable(
  'sim_ticket_uses',
  {
    ticketId: text('ticket_id').primaryKey(),
    expiresAt: at('expires_at').notNull(),
  },
  (table) => [index('sim_ticket_uses_expires_idx').on(table.expiresAt)],
);

/**
 * A single-sign-on ticket opens a simulated cluster page once. The page redeems it by inserting its id: the primary key
 * settles two redemptions at once, in one process or several, so exactly one of them lets the holder in.
 */
import { lt } from 'drizzle-orm';
import type { Clock } from '../../../clock.js';
import type { Database } from '../../../db/client.js';
import { simTicketUses } from './sim-tickets.schema.js';

export interface SimTickets {
  /** True for the first redemption of a ticket, false for every later one. */
  redeem(ticketId: string, expiresAt: Date): Promise<boolean>;
}

export function createSimTickets(db: Database, clock: Clock): SimTickets {
  return {
    async redeem(ticketId, expiresAt) {
      // An expired ticket is refused before it gets here, so its row is no longer needed.
      await db.delete(simTicketUses).where(lt(simTicketUses.expiresAt, clock.now()));
      const won = await db
        .insert(simTicketUses)
        .values({ ticketId, expiresAt })
        .onConflictDoNothing()
        .returning({ ticketId: simTicketUses.ticketId });
      return won.length === 1;
    },
  };
}

import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client.js';
import { sandboxCheckoutSessions } from './sandbox.schema.js';

export type SandboxSessionRow = typeof sandboxCheckoutSessions.$inferSelect;

/** The sandbox provider's storage: its checkout sessions, in the portal's database like any provider keeps its own. */
export function createSandboxRepository(db: DbOrTx) {
  return {
    async insert(values: typeof sandboxCheckoutSessions.$inferInsert): Promise<void> {
      await db.insert(sandboxCheckoutSessions).values(values);
    },

    async find(id: string): Promise<SandboxSessionRow | undefined> {
      const [row] = await db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id));
      return row;
    },

    /** Changes an open session; undefined when it was no longer open (another request got there first). */
    async updateOpen(id: string, values: Partial<typeof sandboxCheckoutSessions.$inferInsert>): Promise<SandboxSessionRow | undefined> {
      const [row] = await db
        .update(sandboxCheckoutSessions)
        .set(values)
        .where(and(eq(sandboxCheckoutSessions.id, id), eq(sandboxCheckoutSessions.status, 'open')))
        .returning();
      return row;
    },
  };
}
export type SandboxRepository = ReturnType<typeof createSandboxRepository>;

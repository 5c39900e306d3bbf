import { sql } from 'drizzle-orm';
import type { SystemRole } from '@kumo/contract';
import type { TestContext } from './harness.js';

/** A staff member made directly in the database, as operators do (there is no sign-up for staff). */
export async function insertStaff(ctx: TestContext, email: string, name: string, role: SystemRole): Promise<void> {
  await ctx.database.db.execute(
    sql`insert into users (email, name, system_role, created_at) values (${email}, ${name}, ${role}, ${ctx.clock.now().toISOString()})`,
  );
}

import { sql } from 'drizzle-orm';
import type { SystemRole } from '@kumo/contract';
import { logIn, send, tokensOf, type TestContext, type Tokens } from './harness.js';

/** A staff member made directly in the database, as operators do (there is no sign-up for staff). */
export async function insertStaff(ctx: TestContext, email: string, name: string, role: SystemRole): Promise<void> {
  await ctx.database.db.execute(
    sql`insert into users (email, name, system_role, created_at) values (${email}, ${name}, ${role}, ${ctx.clock.now().toISOString()})`,
  );
}

/** A support staff member viewing the customer's console as its owner (read-only). */
export async function staffViewOf(ctx: TestContext, ownerId: string): Promise<Tokens> {
  const supportEmail = `access.support.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@kumo.test`;
  await insertStaff(ctx, supportEmail, 'Sue Support', 'SYSTEM_SUPPORT');
  const support: Tokens = await logIn(ctx, supportEmail);
  return tokensOf(await send(ctx, 'POST', `/api/admin/switch-user/${ownerId}`, undefined, support.jwt));
}

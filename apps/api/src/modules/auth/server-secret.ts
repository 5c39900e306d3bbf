import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { serverSecrets } from './auth.schema.js';

const NAME = 'auth';

/** The signing and hashing secret: AUTH_SECRET when given, else one generated once and shared through the database. */
export async function loadAuthSecret(db: Database, configured: string | undefined, now: Date): Promise<string> {
  if (configured) return configured;
  await db
    .insert(serverSecrets)
    .values({ name: NAME, value: randomBytes(48).toString('base64url'), createdAt: now })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, NAME));
  return row!.value;
}

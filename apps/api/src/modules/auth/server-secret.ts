import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { serverSecrets } from './auth.schema.js';

const NAME = 'auth';

/** AUTH_SECRET is set, and differs from the one this database generated when it was not: which is meant is unclear. */
export class StoredSecretMismatchError extends Error {
  constructor() {
    super(
      'AUTH_SECRET differs from the secret this database generated before AUTH_SECRET was set (table server_secrets, ' +
        "name 'auth'). Set AUTH_SECRET to that value to keep sessions, API tokens, invitations and webhook signing " +
        'secrets, then start again: the portal then deletes the row. Or delete the row to keep the new AUTH_SECRET: all ' +
        'of those made before stop working.',
    );
  }
}

/**
 * The master secret every key is derived from: AUTH_SECRET when given (required in production), else, for
 * development only, one generated once and shared through the database. A generated secret that AUTH_SECRET
 * now holds is deleted, so the database no longer carries the master.
 */
export async function loadAuthSecret(db: Database, configured: string | undefined, now: Date): Promise<string> {
  if (configured) {
    const [stored] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, NAME));
    if (stored && stored.value !== configured) throw new StoredSecretMismatchError();
    if (stored) await db.delete(serverSecrets).where(eq(serverSecrets.name, NAME));
    return configured;
  }
  await db
    .insert(serverSecrets)
    .values({ name: NAME, value: randomBytes(48).toString('base64url'), createdAt: now })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, NAME));
  return row!.value;
}

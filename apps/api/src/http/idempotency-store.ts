import { sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';

/** How long a key and its answer are kept: a retry within this time gets the first answer again. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
/** A claim not answered within this time belongs to a process that died: the next request with its key takes it over. */
const ABANDONED_AFTER_MS = 5 * 60_000;

export interface StoredAnswer {
  status: number;
  contentType: string | null;
  body: string;
}

/** What a request with a key finds: the key is now its own, the key's answer, another request's key, or work under way. */
export type Claim = { kind: 'claimed' } | { kind: 'answered'; answer: StoredAnswer } | { kind: 'other-request' } | { kind: 'in-progress' };

interface Row extends Record<string, unknown> {
  fingerprint: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
}

/**
 * Idempotency keys in PostgreSQL, so every process of the portal agrees: the primary key (scope, key) lets exactly one
 * request claim a key; the others read what it answered. Time is the injected clock's.
 */
export function createIdempotencyStore(db: Database, clock: Clock) {
  const iso = (ms: number) => new Date(clock.now().getTime() - ms).toISOString();
  return {
    /** Claims the key for this request, or says what holds it (an expired or abandoned claim is taken over). */
    async claim(scope: string, key: string, fingerprint: string): Promise<Claim> {
      const claimed = await db.execute(sql`
        insert into idempotency_keys as held (scope, key, fingerprint, created_at)
        values (${scope}, ${key}, ${fingerprint}, ${clock.now().toISOString()}::timestamptz)
        on conflict (scope, key) do update
          set fingerprint = excluded.fingerprint, created_at = excluded.created_at, status = null, content_type = null, body = null
          where held.created_at < ${iso(IDEMPOTENCY_RETENTION_MS)}::timestamptz
            or (held.status is null and held.created_at < ${iso(ABANDONED_AFTER_MS)}::timestamptz)
        returning 1`);
      if (claimed.rows.length > 0) return { kind: 'claimed' };
      return this.read(scope, key, fingerprint);
    },

    /** What holds a key claimed by another request. */
    async read(scope: string, key: string, fingerprint: string): Promise<Claim> {
      const found = await db.execute<Row>(
        sql`select fingerprint, status, content_type, body from idempotency_keys where scope = ${scope} and key = ${key}`,
      );
      const row = found.rows[0];
      // Released between the claim and this read: the caller tries to claim it again.
      if (!row) return { kind: 'in-progress' };
      if (row.fingerprint !== fingerprint) return { kind: 'other-request' };
      if (row.status === null) return { kind: 'in-progress' };
      return { kind: 'answered', answer: { status: Number(row.status), contentType: row.content_type, body: row.body ?? '' } };
    },

    /** Keeps the answer of the request that claimed the key. */
    async answer(scope: string, key: string, answer: StoredAnswer): Promise<void> {
      await db.execute(sql`
        update idempotency_keys set status = ${answer.status}, content_type = ${answer.contentType}, body = ${answer.body}
        where scope = ${scope} and key = ${key} and status is null`);
    },

    /** Lets the key go without an answer (the request failed on the server's side): a retry does the work. */
    async release(scope: string, key: string): Promise<void> {
      await db.execute(sql`delete from idempotency_keys where scope = ${scope} and key = ${key} and status is null`);
    },

    /** Removes keys past their retention. */
    async sweep(): Promise<void> {
      await db.execute(sql`delete from idempotency_keys where created_at < ${iso(IDEMPOTENCY_RETENTION_MS)}::timestamptz`);
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;

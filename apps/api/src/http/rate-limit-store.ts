import { sql } from 'drizzle-orm';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;
/** What a store is built with: the plugin's options, and for a route's child store the route (its method and path). */
type StoreOptions = { routeInfo?: { method?: string | string[]; url?: string } };

export type RateLimitStoreClass = FastifyRateLimitStoreCtor & { sweep(): Promise<void> };

// Expired windows are removed this often; a hit on an expired row restarts it anyway, this only keeps the table small.
const SWEEP_EVERY_MS = 5 * 60_000;

/**
 * Rate-limit counters in PostgreSQL, so every process of the portal counts the same hits: one upsert per hit,
 * which starts a new window when the old one has ended (one round trip, the row lock serialises concurrent hits).
 * Time is the injected clock's. A database error is passed on: the request is then answered 503 (decision 0020).
 */
export function createRateLimitStore(db: Database, clock: Clock): RateLimitStoreClass {
  async function hit(key: string, timeWindowMs: number) {
    const now = clock.now();
    const result = await db.execute<{ hits: number; window_ends_at: Date | string }>(sql`
      insert into rate_limit_hits as hit (key, hits, window_ends_at)
      values (${key}, 1, ${now.toISOString()}::timestamptz + ${timeWindowMs} * interval '1 millisecond')
      on conflict (key) do update set
        hits = case when hit.window_ends_at <= ${now.toISOString()}::timestamptz then 1 else hit.hits + 1 end,
        window_ends_at = case when hit.window_ends_at <= ${now.toISOString()}::timestamptz then excluded.window_ends_at else hit.window_ends_at end
      returning hits, window_ends_at`);
    return { row: result.rows[0]!, now };
  }

  async function peek(key: string) {
    const now = clock.now();
    const result = await db.execute<{ hits: number; window_ends_at: Date | string }>(
      sql`select hits, window_ends_at from rate_limit_hits where key = ${key} and window_ends_at > ${now.toISOString()}::timestamptz`,
    );
    return { row: result.rows[0], now };
  }

  const ttlOf = (windowEndsAt: Date | string, now: Date) => Math.max(0, new Date(windowEndsAt).getTime() - now.getTime());

  class PostgresRateLimitStore implements FastifyRateLimitStore {
    private readonly scope: string;

    constructor(options: object = {}) {
      const { method, url } = (options as StoreOptions).routeInfo ?? {};
      // Each limited route counts on its own, as the in-memory store does with one map per route.
      this.scope = url ? `${[method ?? ''].flat().join(',')} ${url}|` : '';
    }

    incr(key: string, callback: Callback, timeWindowMs: number): void {
      hit(this.scope + key, timeWindowMs).then(
        ({ row, now }) => callback(null, { current: Number(row.hits), ttl: ttlOf(row.window_ends_at, now) }),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: Callback): void {
      peek(this.scope + key).then(
        ({ row, now }) => callback(null, row ? { current: Number(row.hits), ttl: ttlOf(row.window_ends_at, now) } : { current: 0, ttl: 0 }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      return new PostgresRateLimitStore(routeOptions);
    }
  }

  return Object.assign(PostgresRateLimitStore, {
    async sweep() {
      await db.execute(sql`delete from rate_limit_hits where window_ends_at < ${clock.now().toISOString()}::timestamptz`);
    },
  });
}

/**
 * Removes ended windows (or any store's expired rows) every few minutes until `stop` is called; a failed sweep
 * waits for the next one.
 */
export function sweepRateLimits(store: { sweep(): Promise<void> }, onError: (error: unknown) => void): () => void {
  const timer = setInterval(() => void store.sweep().catch(onError), SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

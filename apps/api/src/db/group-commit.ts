import type { Database, Tx } from './client.js';

// SQLSTATEs after which the whole transaction may simply run again: serialization failure and deadlock.
const TRANSIENT = new Set(['40001', '40P01']);
const ATTEMPTS = 3;
const DEFAULT_MAX_BATCH = 500;

/** True when `error`, or anything along its cause chain (Drizzle wraps the driver's error), says "run it again". */
export function isTransientConflict(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string' && TRANSIENT.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

interface Waiting<I> {
  item: I;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export interface GroupCommitOptions<K, I, R> {
  db: Database;
  /** Runs first in each transaction: takes the key's contended lock once. */
  begin?: (key: K, tx: Tx) => Promise<void>;
  /** Writes one item (in a savepoint of its own). */
  one: (item: I, tx: Tx) => Promise<R>;
  /**
   * Writes several items at once, answering each in order (in one savepoint): the fast way for a group. When it
   * throws, the group is written item by item with `one` instead, in the same transaction.
   */
  all?: (items: I[], tx: Tx) => Promise<R[]>;
  maxBatch?: number;
}

/**
 * Group commit of the writes that contend for one key (a row every one of them locks). Writes for a key wait here, in
 * the process and without a connection, while the one transaction of that key runs; then every write that came in
 * meanwhile goes into the next transaction: `begin` first (it takes the contended lock once), then all of them at once
 * through `all`, or each in a savepoint of its own through `one`, so one write's failure rolls back that write only and
 * is its caller's alone. Each caller is answered once the transaction that holds its write has committed. A transaction
 * ended by a serialization failure or a deadlock runs again, whole, so neither reaches a caller unless it repeats.
 *
 * The queue only saves connections and round trips: what keeps two processes from writing one key at once is still the
 * lock `begin` and the writes take in the database.
 */
export function createGroupCommit<K, I, R>(options: GroupCommitOptions<K, I, R>) {
  const { db, begin, one, all } = options;
  const maxBatch = options.maxBatch ?? DEFAULT_MAX_BATCH;
  const queues = new Map<K, Waiting<I>[]>();

  async function writeAll(items: I[], tx: Tx): Promise<Outcome[] | undefined> {
    if (!all || items.length < 2) return undefined;
    try {
      const values = await tx.transaction((savepoint) => all(items, savepoint));
      return values.map((value) => ({ ok: true, value }));
    } catch (error) {
      if (isTransientConflict(error)) throw error;
      return undefined;
    }
  }

  async function writeEach(items: I[], tx: Tx): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    for (const item of items) {
      try {
        outcomes.push({ ok: true, value: await tx.transaction((savepoint) => one(item, savepoint)) });
      } catch (error) {
        if (isTransientConflict(error)) throw error;
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  async function runBatch(key: K, batch: Waiting<I>[]): Promise<void> {
    const items = batch.map(({ item }) => item);
    for (let attempt = 1; ; attempt++) {
      let outcomes: Outcome[];
      try {
        outcomes = await db.transaction(async (tx) => {
          await begin?.(key, tx);
          return (await writeAll(items, tx)) ?? (await writeEach(items, tx));
        });
      } catch (error) {
        if (isTransientConflict(error) && attempt < ATTEMPTS) continue;
        for (const waiting of batch) waiting.reject(error);
        return;
      }
      batch.forEach((waiting, index) => {
        const outcome = outcomes[index]!;
        if (outcome.ok) waiting.resolve(outcome.value);
        else waiting.reject(outcome.error);
      });
      return;
    }
  }

  async function drain(key: K, queue: Waiting<I>[]): Promise<void> {
    while (queue.length > 0) await runBatch(key, queue.splice(0, maxBatch));
    queues.delete(key);
  }

  return {
    /** Writes `item` in the key's next transaction and answers with its own result (or its own error). */
    run(key: K, item: I): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        const waiting: Waiting<I> = { item, resolve: resolve as (value: unknown) => void, reject };
        const queue = queues.get(key);
        if (queue) {
          queue.push(waiting);
          return;
        }
        const fresh = [waiting];
        queues.set(key, fresh);
        void drain(key, fresh);
      });
    },
  };
}

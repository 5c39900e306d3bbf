import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, openTestDatabase } from '../../test/support/databases.js';
import type { Database, DatabaseHandle, Tx } from './client.js';
import { createGroupCommit, isTransientConflict } from './group-commit.js';

const kinds = await databaseKinds();

describe.each(kinds)('group commit on %s', (kind) => {
  let database: DatabaseHandle;
  let transactions = 0;
  let db: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.db.execute(sql`create table group_counters (key text primary key, total integer not null)`);
    // The same client, counting the transactions it opens.
    db = new Proxy(database.db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver) as unknown;
        return (work: (tx: Tx) => Promise<unknown>) => {
          transactions++;
          return target.transaction(work);
        };
      },
    });
  });
  afterAll(() => database.close());

  type Work = (tx: Tx) => Promise<number>;
  const workGroup = (all?: (works: Work[], tx: Tx) => Promise<number[]>) =>
    createGroupCommit<string, Work, number>({ db, begin: (key, tx) => lockRow(key, tx), one: (work, tx) => work(tx), all });
  const add = (key: string, amount: number) => async (tx: Tx) => {
    const result = await tx.execute(sql`update group_counters set total = total + ${amount} where key = ${key} returning total`);
    return Number((result.rows[0] as { total: number }).total);
  };
  const totalOf = async (key: string) => {
    const [row] = (await database.db.execute(sql`select total from group_counters where key = ${key}`)).rows as { total: number }[];
    return Number(row?.total ?? 0);
  };
  const lockRow = async (key: string, tx: Tx) => {
    await tx.execute(sql`insert into group_counters (key, total) values (${key}, 0) on conflict (key) do nothing`);
    await tx.execute(sql`select total from group_counters where key = ${key} for update`);
  };

  it('writes a burst for one key in a few transactions, answering each caller with its own result', async () => {
    const group = workGroup();
    transactions = 0;
    const results = await Promise.all(Array.from({ length: 50 }, (_, index) => group.run('burst', add('burst', index + 1))));
    expect(await totalOf('burst')).toBe((50 * 51) / 2);
    // Each answer is the running total just after its own write: all different, the largest the sum.
    expect(new Set(results).size).toBe(50);
    expect(Math.max(...results)).toBe((50 * 51) / 2);
    // The first write runs alone; the 49 that came meanwhile share the next transaction.
    expect(transactions).toBeLessThanOrEqual(3);
  });

  it('rolls back only the write that failed, in code or in SQL, and hands its error to its own caller', async () => {
    const group = workGroup();
    const outcomes = await Promise.allSettled([
      group.run('mixed', add('mixed', 1)),
      group.run('mixed', add('mixed', 10)),
      group.run('mixed', async (tx) => {
        await add('mixed', 100)(tx);
        throw new Error('refused');
      }),
      group.run('mixed', async (tx) => {
        await add('mixed', 1000)(tx);
        await tx.execute(sql`select 1 / 0`);
        return 0;
      }),
      group.run('mixed', add('mixed', 10_000)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(String((outcomes[2] as PromiseRejectedResult).reason)).toContain('refused');
    expect(await totalOf('mixed')).toBe(10_011);
  });

  it('runs a transaction ended by a serialization failure again, so no caller sees it and nothing is written twice', async () => {
    const group = workGroup();
    let failures = 0;
    const conflict = Object.assign(new Error('could not serialize access'), { code: '40001' });
    const results = await Promise.all([
      group.run('retried', add('retried', 5)),
      group.run('retried', add('retried', 7)),
      group.run('retried', async (tx) => {
        const total = await add('retried', 11)(tx);
        if (failures++ === 0) throw new Error('wrapped', { cause: conflict });
        return total;
      }),
    ]);
    expect(isTransientConflict(new Error('wrapped', { cause: conflict }))).toBe(true);
    expect(failures).toBe(2);
    expect(await totalOf('retried')).toBe(23);
    expect(results.at(-1)).toBe(23);
  });

  it('gives up after a few attempts and answers every caller of the transaction with its error', async () => {
    const group = workGroup();
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const outcomes = await Promise.allSettled([
      group.run('stuck', async () => {
        throw deadlock;
      }),
    ]);
    expect(outcomes).toEqual([{ status: 'rejected', reason: deadlock }]);
    expect(await totalOf('stuck')).toBe(0);
  });

  it('writes a group the fast way when it can, and item by item in the same transaction when the fast way throws', async () => {
    let fastGroups = 0;
    const fast = workGroup(async (works, tx) => {
      fastGroups++;
      const results: number[] = [];
      for (const work of works) results.push(await work(tx));
      if (results.some((total) => total > 1000)) throw new Error('not this way');
      return results;
    });
    transactions = 0;
    const first = await Promise.all(Array.from({ length: 10 }, () => fast.run('fast', add('fast', 1))));
    expect(first.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(fastGroups).toBe(1);
    const second = await Promise.allSettled([
      fast.run('fast', add('fast', 1)),
      fast.run('fast', add('fast', 2)),
      fast.run('fast', add('fast', 2000)),
      fast.run('fast', async (tx) => {
        await add('fast', 5)(tx);
        throw new Error('refused');
      }),
    ]);
    // The first runs alone; the fast way for the other three fails on the large total and is rolled back.
    expect(second.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : 'rejected'))).toEqual([11, 13, 2013, 'rejected']);
    expect(await totalOf('fast')).toBe(2013);
  });
});

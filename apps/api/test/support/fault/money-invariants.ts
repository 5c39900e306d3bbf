import pg from 'pg';
import type { ConfirmedTopUp } from './customer-client.js';

export interface InvariantReport {
  subscriptions: number;
  ledgerEntries: number;
  confirmedTopUps: number;
  chargedHours: number;
  /** One line per broken invariant; empty when the money is right. */
  broken: string[];
}

type Row = Record<string, string>;

/**
 * The money invariants, read straight from the database in one snapshot (REPEATABLE READ), so a portal
 * writing meanwhile cannot make a consistent state look broken:
 * - every subscription's balance equals the sum of its ledger entries, and each entry's balance_after the running sum;
 * - every top-up the portal confirmed is in the ledger exactly once, with its amount, on its subscription;
 * - every successful purchase points at its own entry, and every purchase entry belongs to a successful purchase;
 * - no (cluster, dimension, hour) is charged twice, every charged hour lies on its cluster's hour grid (so a
 *   restart cannot start a second, shifted grid), and the charges of each subscription equal its usage entries
 *   and its rollups (each charged hour reached the ledger once).
 */
export async function checkMoneyInvariants(database: string | pg.Pool, confirmed: readonly ConfirmedTopUp[]): Promise<InvariantReport> {
  const own = typeof database === 'string' ? new pg.Client({ connectionString: database, connectionTimeoutMillis: 10_000 }) : undefined;
  const client = own ?? (await (database as pg.Pool).connect());
  client.on('error', () => undefined);
  if (own) await own.connect();
  const rows = async (text: string, values: unknown[] = []) => (await client.query<Row>(text, values)).rows;
  const broken: string[] = [];
  try {
    await client.query('begin isolation level repeatable read read only');
    const [counts] = await rows(`
      select (select count(*) from subscriptions)::text as subscriptions,
             (select count(*) from ledger_entries)::text as entries,
             (select count(*) from metering_charges)::text as charges`);

    for (const row of await rows(`
      select s.id, s.balance_cents::text as balance, coalesce(sum(e.amount_cents), 0)::text as ledger
      from subscriptions s left join ledger_entries e on e.subscription_id = s.id
      group by s.id having s.balance_cents <> coalesce(sum(e.amount_cents), 0)`)) {
      broken.push(`subscription ${row.id}: balance ${row.balance} cents, its ledger entries sum to ${row.ledger}`);
    }
    for (const row of await rows(`
      select id, subscription_id, balance_after_cents::text as after, running::text from (
        select id, subscription_id, balance_after_cents,
               sum(amount_cents) over (partition by subscription_id order by seq) as running
        from ledger_entries) entries
      where balance_after_cents <> running limit 20`)) {
      broken.push(`ledger entry ${row.id} (subscription ${row.subscription_id}): balance after ${row.after}, running sum ${row.running}`);
    }

    for (const row of await rows(
      `select c.key, c.subscription_id, c.cents::text as cents, count(e.id)::text as found,
              string_agg(e.amount_cents::text || ' on ' || e.subscription_id::text || ' as ' || e.kind, '; ') as entries
       from unnest($1::text[], $2::uuid[], $3::bigint[]) as c(key, subscription_id, cents)
       left join ledger_entries e on e.idempotency_key = c.key
       group by c.key, c.subscription_id, c.cents
       having count(e.id) <> 1 or bool_or(e.amount_cents <> c.cents or e.subscription_id <> c.subscription_id or e.kind <> 'PURCHASE')`,
      [confirmed.map((t) => `checkout:${t.checkoutSessionId}`), confirmed.map((t) => t.subscriptionId), confirmed.map((t) => t.cents)],
    )) {
      broken.push(
        `confirmed top-up ${row.key} of ${row.cents} cents on ${row.subscription_id}: ${row.found} ledger entries (${row.entries ?? 'none'})`,
      );
    }
    for (const row of await rows(`
      select p.id, p.checkout_session_id from purchases p
      where p.status = 'SUCCESSFUL' and not exists (
        select 1 from ledger_entries e where e.id = p.ledger_entry_id and e.idempotency_key = 'checkout:' || p.checkout_session_id)
      limit 20`)) {
      broken.push(`successful purchase ${row.id} (checkout ${row.checkout_session_id}) has no ledger entry of its own`);
    }
    for (const row of await rows(`
      select e.id, e.idempotency_key from ledger_entries e
      where e.kind = 'PURCHASE' and not exists (
        select 1 from purchases p where p.status = 'SUCCESSFUL' and 'checkout:' || p.checkout_session_id = e.idempotency_key)
      limit 20`)) {
      broken.push(`purchase entry ${row.id} (${row.idempotency_key}) belongs to no successful purchase`);
    }

    for (const row of await rows(`
      select cluster_id, dimension, hour_start::text, count(*)::text as times from metering_charges
      group by 1, 2, 3 having count(*) > 1 limit 20`)) {
      broken.push(`cluster ${row.cluster_id} charged ${row.times} times for ${row.dimension} at ${row.hour_start}`);
    }
    for (const row of await rows(`
      select c.cluster_id, c.dimension, c.hour_start::text from metering_charges c join metering_clusters m using (cluster_id)
      where mod(round(extract(epoch from (c.hour_start - m.origin_at)) * 1000)::bigint, m.hour_ms) <> 0 limit 20`)) {
      broken.push(`cluster ${row.cluster_id} charged ${row.dimension} for an hour off its grid, at ${row.hour_start}`);
    }
    for (const row of await rows(`
      with charged as (select subscription_id, sum(amount_cents) as cents from metering_charges group by 1),
           used as (select subscription_id, -sum(amount_cents) as cents from ledger_entries where kind = 'USAGE' group by 1),
           rolled as (select subscription_id, sum(amount_cents) as cents from metering_subscription_daily_rollups group by 1)
      select s.id, coalesce(c.cents, 0)::text as charged, coalesce(u.cents, 0)::text as used, coalesce(r.cents, 0)::text as rolled
      from subscriptions s left join charged c on c.subscription_id = s.id left join used u on u.subscription_id = s.id
           left join rolled r on r.subscription_id = s.id
      where coalesce(c.cents, 0) <> coalesce(u.cents, 0) or coalesce(c.cents, 0) <> coalesce(r.cents, 0)`)) {
      broken.push(`subscription ${row.id}: hours charged ${row.charged} cents, usage entries ${row.used}, rollups ${row.rolled}`);
    }
    await client.query('commit');
    return {
      subscriptions: Number(counts!.subscriptions),
      ledgerEntries: Number(counts!.entries),
      confirmedTopUps: confirmed.length,
      chargedHours: Number(counts!.charges),
      broken,
    };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    if (own) await own.end().catch(() => undefined);
    else (client as pg.PoolClient).release();
  }
}

export function describeInvariants(report: InvariantReport): string {
  const state = report.broken.length === 0 ? 'all invariants hold' : `${report.broken.length} broken:\n  ${report.broken.join('\n  ')}`;
  return (
    `${report.subscriptions} subscriptions, ${report.ledgerEntries} ledger entries, ` +
    `${report.confirmedTopUps} confirmed top-ups checked, ${report.chargedHours} charged hours: ${state}`
  );
}

import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { subscriptions } from './subscriptions.schema.js';

/** A live subscription with the person who created it. */
export interface SubscriptionRow {
  id: string;
  accountId: string;
  name: string;
  remark: string;
  type: string;
  status: string;
  balanceCents: number;
  activeClusterCount: number;
  createdAt: Date;
  createdByName: string;
  createdByEmail: string;
}

/** A row as node-postgres gives it for the reads below (a timestamp as PostgreSQL's text, a bigint as text). */
interface LiveRow {
  id: string;
  account_id: string;
  name: string;
  remark: string;
  type: string;
  status: string;
  balance_cents: string;
  active_cluster_count: number;
  created_at: string;
  created_by_name: string;
  created_by_email: string;
}

/**
 * The text of the live-subscription reads, written once: the subscription list is read on every screen, and building
 * its statement from the schema's objects on each call cost more than PostgreSQL's answer.
 */
const SELECT_LIVE_OF_ACCOUNT = sql.raw(`
  select s.id, s.account_id, s.name, s.remark, s.type, s.status, s.balance_cents, s.active_cluster_count, s.created_at,
    u.name as created_by_name, u.email as created_by_email
  from "subscriptions" s join "user_directory" u on u.id = s.created_by_user_id
  where s.deleted_at is null and s.account_id = `);
const AND_ID = sql.raw(' and s.id = ');
const IN_LIST_ORDER = sql.raw(' order by s.created_at, s.name');

function liveRow(row: LiveRow): SubscriptionRow {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    remark: row.remark,
    type: row.type,
    status: row.status,
    balanceCents: Number(row.balance_cents),
    activeClusterCount: row.active_cluster_count,
    createdAt: new Date(row.created_at),
    createdByName: row.created_by_name,
    createdByEmail: row.created_by_email,
  };
}

/** SQL for subscriptions. Every read is scoped to an account; deleted subscriptions are never returned. */
export function createSubscriptionsRepository(db: DbOrTx) {
  const live = (accountId: string) => and(eq(subscriptions.accountId, accountId), isNull(subscriptions.deletedAt));

  return {
    async listForAccount(accountId: string, tx: DbOrTx = db): Promise<SubscriptionRow[]> {
      const result = await tx.execute(sql`${SELECT_LIVE_OF_ACCOUNT}${accountId}${IN_LIST_ORDER}`);
      return (result.rows as unknown as LiveRow[]).map(liveRow);
    },

    async findForAccount(accountId: string, id: string, tx: DbOrTx = db): Promise<SubscriptionRow | undefined> {
      const result = await tx.execute(sql`${SELECT_LIVE_OF_ACCOUNT}${accountId}${AND_ID}${id}`);
      const [row] = result.rows as unknown as LiveRow[];
      return row && liveRow(row);
    },

    /** Every subscription the account ever had, deleted ones included. */
    async countEverCreated(accountId: string, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(subscriptions)
        .where(eq(subscriptions.accountId, accountId));
      return row?.count ?? 0;
    },

    async nameTaken(accountId: string, name: string, tx: DbOrTx = db): Promise<boolean> {
      const [row] = await tx
        .select({ id: subscriptions.id })
        .from(subscriptions)
        .where(and(live(accountId), sql`lower(${subscriptions.name}) = lower(${name})`))
        .limit(1);
      return !!row;
    },

    async insert(values: typeof subscriptions.$inferInsert, tx: DbOrTx = db): Promise<string> {
      const [row] = await tx.insert(subscriptions).values(values).returning({ id: subscriptions.id });
      return row!.id;
    },

    async lockForAccount(accountId: string, id: string, tx: DbOrTx) {
      const [row] = await tx
        .select({ id: subscriptions.id, activeClusterCount: subscriptions.activeClusterCount })
        .from(subscriptions)
        .where(and(live(accountId), eq(subscriptions.id, id)))
        .for('update');
      return row;
    },

    async markDeleted(id: string, at: Date, tx: DbOrTx): Promise<void> {
      await tx.update(subscriptions).set({ deletedAt: at, status: 'DELETED' }).where(eq(subscriptions.id, id));
    },

    /** Moves the active cluster count; false when it would go below zero or the subscription is unknown. */
    async adjustActiveClusterCount(id: string, delta: number, tx: DbOrTx = db): Promise<boolean> {
      const updated = await tx
        .update(subscriptions)
        .set({ activeClusterCount: sql`${subscriptions.activeClusterCount} + ${delta}` })
        .where(and(eq(subscriptions.id, id), sql`${subscriptions.activeClusterCount} + ${delta} >= 0`))
        .returning({ id: subscriptions.id });
      return updated.length === 1;
    },
  };
}
export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;

/**
 * The polled cluster list's one read. A console polls it and an account with many clusters makes it the heaviest of
 * the first screen's reads, so it selects only what the list shows (not a cluster's nodes, sealed password or lease)
 * and maps PostgreSQL's rows itself: per row and column, the query builder's generic mapping cost more than the query.
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import type { clusters } from './clusters.schema.js';

/** What the cluster list shows of a cluster. */
export type ListedCluster = Pick<
  typeof clusters.$inferSelect,
  | 'id'
  | 'accountId'
  | 'subscriptionId'
  | 'name'
  | 'description'
  | 'cloudProvider'
  | 'region'
  | 'backupRegion'
  | 'cidr'
  | 'kumoVersion'
  | 'stackName'
  | 'status'
  | 'statusUpdatedAt'
  | 'capacity'
  | 'stackStatus'
  | 'deploymentStatus'
  | 'managerUrl'
  | 'portalUrl'
  | 'createdAt'
  | 'deployedAt'
  | 'size'
  | 'queryEngines'
  | 'resizeToSize'
  | 'resizeToEngines'
>;

export interface SubscriptionWithCluster {
  subscriptionId: string;
  subscriptionName: string;
  subscriptionBalanceCents: number;
  /** Null for a subscription without clusters, which comes once. */
  cluster: ListedCluster | null;
  creatorName: string | null;
  creatorEmail: string | null;
}

/** A row as node-postgres gives it for the query below (timestamps as PostgreSQL's text, bigint as text). */
interface ListRow {
  subscription_id: string;
  subscription_name: string;
  balance_cents: string;
  id: string | null;
  account_id: string;
  name: string;
  description: string;
  cloud_provider: string;
  region: string;
  backup_region: string | null;
  cidr: string;
  kumo_version: string;
  stack_name: string;
  status: string;
  status_updated_at: string;
  capacity: number;
  stack_status: string | null;
  deployment_status: string | null;
  manager_url: string | null;
  portal_url: string | null;
  created_at: string;
  deployed_at: string | null;
  size: string;
  query_engines: number;
  resize_to_size: string | null;
  resize_to_engines: number | null;
  creator_name: string | null;
  creator_email: string | null;
}

/**
 * The query's text around its values, written once: built from the schema's objects on every poll, its 60-odd parts
 * cost more than PostgreSQL's answer. The views are the subscriptions' and people's published read models.
 */
const SELECT_FROM = sql.raw(`
  select s.id as subscription_id, s.name as subscription_name, s.balance_cents,
    c.id, c.account_id, c.name, c.description, c.cloud_provider, c.region, c.backup_region, c.cidr, c.kumo_version,
    c.stack_name, c.status, c.status_updated_at, c.capacity, c.stack_status, c.deployment_status, c.manager_url,
    c.portal_url, c.created_at, c.deployed_at, c.size, c.query_engines, c.resize_to_size, c.resize_to_engines, u.name as creator_name, u.email as creator_email
  from "subscription_directory" s
  left join "clusters" c on c.subscription_id = s.id and c.deleted_at is null and c.account_id = `);
const LIVE_SUBSCRIPTIONS_OF = sql.raw(`
  left join "user_directory" u on u.id = c.created_by_user_id
  where s.deleted_at is null and s.account_id = `);
const AND_SUBSCRIPTION = sql.raw(' and s.id = ');
const IN_LIST_ORDER = sql.raw(' order by s.created_at, s.id, c.created_at, c.id');

/**
 * The account's live subscriptions (or one of them), each with its clusters that are not deleted, in the list's
 * order: subscriptions oldest first, their clusters oldest first.
 */
export async function readClusterList(db: DbOrTx, accountId: string, subscriptionId?: string): Promise<SubscriptionWithCluster[]> {
  const result = await db.execute(
    subscriptionId
      ? sql`${SELECT_FROM}${accountId}${LIVE_SUBSCRIPTIONS_OF}${accountId}${AND_SUBSCRIPTION}${subscriptionId}${IN_LIST_ORDER}`
      : sql`${SELECT_FROM}${accountId}${LIVE_SUBSCRIPTIONS_OF}${accountId}${IN_LIST_ORDER}`,
  );
  return (result.rows as unknown as ListRow[]).map((row) => ({
    subscriptionId: row.subscription_id,
    subscriptionName: row.subscription_name,
    subscriptionBalanceCents: Number(row.balance_cents),
    cluster: row.id === null ? null : listedCluster(row, row.id),
    creatorName: row.creator_name,
    creatorEmail: row.creator_email,
  }));
}

function listedCluster(row: ListRow, id: string): ListedCluster {
  return {
    id,
    accountId: row.account_id,
    subscriptionId: row.subscription_id,
    name: row.name,
    description: row.description,
    cloudProvider: row.cloud_provider,
    region: row.region,
    backupRegion: row.backup_region,
    cidr: row.cidr,
    kumoVersion: row.kumo_version,
    stackName: row.stack_name,
    status: row.status,
    statusUpdatedAt: new Date(row.status_updated_at),
    capacity: row.capacity,
    stackStatus: row.stack_status,
    deploymentStatus: row.deployment_status,
    managerUrl: row.manager_url,
    portalUrl: row.portal_url,
    createdAt: new Date(row.created_at),
    deployedAt: row.deployed_at === null ? null : new Date(row.deployed_at),
    size: row.size,
    queryEngines: row.query_engines,
    resizeToSize: row.resize_to_size,
    resizeToEngines: row.resize_to_engines,
  };
}

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

/** A cluster as listed, with its creator's name and email (null when the creator is gone). */
export interface ListedClusterRow {
  cluster: ListedCluster;
  creatorName: string | null;
  creatorEmail: string | null;
}

/** A live subscription with its clusters that are not deleted, oldest first (none for a subscription without any). */
export interface SubscriptionClusterList {
  subscriptionId: string;
  subscriptionName: string;
  subscriptionBalanceCents: number;
  clusters: ListedClusterRow[];
}

/**
 * A cluster as PostgreSQL gives it in the query below: one JSON array per cluster, in the order of the columns there
 * (timestamps as milliseconds since the epoch, cut as a JavaScript date cuts PostgreSQL's microseconds).
 */
type ClusterTuple = [
  id: string,
  name: string,
  description: string,
  cloudProvider: string,
  region: string,
  backupRegion: string | null,
  cidr: string,
  kumoVersion: string,
  stackName: string,
  status: string,
  statusUpdatedAt: number,
  capacity: number,
  stackStatus: string | null,
  deploymentStatus: string | null,
  managerUrl: string | null,
  portalUrl: string | null,
  createdAt: number,
  deployedAt: number | null,
  size: string,
  queryEngines: number,
  resizeToSize: string | null,
  resizeToEngines: number | null,
  creatorName: string | null,
  creatorEmail: string | null,
];

/** A row of the query below as node-postgres gives it (bigint as text, json parsed once by node-postgres). */
interface ListRow {
  subscription_id: string;
  subscription_name: string;
  balance_cents: string;
  clusters: ClusterTuple[] | null;
}

/**
 * The query's text around its values, written once: built from the schema's objects on every poll, its 60-odd parts
 * cost more than PostgreSQL's answer. The views are the subscriptions' and people's published read models. A
 * subscription's clusters come as one JSON list rather than a row each: node-postgres's per-column work on a row each
 * cost more than one JSON.parse of the list.
 */
const MILLIS = (column: string) => `floor(extract(epoch from ${column}) * 1000)::bigint`;
const SELECT_FROM = sql.raw(`
  select s.id as subscription_id, s.name as subscription_name, s.balance_cents,
    json_agg(json_build_array(
      c.id, c.name, c.description, c.cloud_provider, c.region, c.backup_region, c.cidr, c.kumo_version, c.stack_name,
      c.status, ${MILLIS('c.status_updated_at')}, c.capacity, c.stack_status, c.deployment_status, c.manager_url,
      c.portal_url, ${MILLIS('c.created_at')}, ${MILLIS('c.deployed_at')}, c.size, c.query_engines, c.resize_to_size,
      c.resize_to_engines, u.name, u.email
    ) order by c.created_at, c.id) filter (where c.id is not null) as clusters
  from "subscription_directory" s
  left join "clusters" c on c.subscription_id = s.id and c.deleted_at is null and c.account_id = `);
const LIVE_SUBSCRIPTIONS_OF = sql.raw(`
  left join "user_directory" u on u.id = c.created_by_user_id
  where s.deleted_at is null and s.account_id = `);
const AND_SUBSCRIPTION = sql.raw(' and s.id = ');
const IN_LIST_ORDER = sql.raw(' group by s.id, s.name, s.balance_cents, s.created_at order by s.created_at, s.id');

/**
 * The account's live subscriptions (or one of them), each with its clusters that are not deleted, in the list's
 * order: subscriptions oldest first, their clusters oldest first.
 */
export async function readClusterList(db: DbOrTx, accountId: string, subscriptionId?: string): Promise<SubscriptionClusterList[]> {
  const result = await db.execute(
    subscriptionId
      ? sql`${SELECT_FROM}${accountId}${LIVE_SUBSCRIPTIONS_OF}${accountId}${AND_SUBSCRIPTION}${subscriptionId}${IN_LIST_ORDER}`
      : sql`${SELECT_FROM}${accountId}${LIVE_SUBSCRIPTIONS_OF}${accountId}${IN_LIST_ORDER}`,
  );
  return (result.rows as unknown as ListRow[]).map((row) => ({
    subscriptionId: row.subscription_id,
    subscriptionName: row.subscription_name,
    subscriptionBalanceCents: Number(row.balance_cents),
    clusters: (row.clusters ?? []).map((tuple) => listedCluster(tuple, accountId, row.subscription_id)),
  }));
}

function listedCluster(t: ClusterTuple, accountId: string, subscriptionId: string): ListedClusterRow {
  return {
    cluster: {
      id: t[0],
      accountId,
      subscriptionId,
      name: t[1],
      description: t[2],
      cloudProvider: t[3],
      region: t[4],
      backupRegion: t[5],
      cidr: t[6],
      kumoVersion: t[7],
      stackName: t[8],
      status: t[9],
      statusUpdatedAt: new Date(t[10]),
      capacity: t[11],
      stackStatus: t[12],
      deploymentStatus: t[13],
      managerUrl: t[14],
      portalUrl: t[15],
      createdAt: new Date(t[16]),
      deployedAt: t[17] === null ? null : new Date(t[17]),
      size: t[18],
      queryEngines: t[19],
      resizeToSize: t[20],
      resizeToEngines: t[21],
    },
    creatorName: t[22],
    creatorEmail: t[23],
  };
}

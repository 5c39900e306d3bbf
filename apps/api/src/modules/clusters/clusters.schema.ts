/** The clusters module's tables: clusters, their audit log, approvals, schedules and who may do what in their managers. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at } from '../../db/columns.js';

/** One node as last described by the cloud, kept for the details page. */
export interface StoredClusterNode {
  host: string;
  role: string;
  instanceType: string;
  core: number;
  nodeStatus: string;
  serviceName: string;
  serviceStatus: string;
}

export const clusters = pgTable(
  'clusters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    subscriptionId: uuid('subscription_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    cloudProvider: text('cloud_provider').notNull(),
    region: text('region').notNull(),
    backupRegion: text('backup_region'),
    cidr: text('cidr').notNull(),
    kumoVersion: text('kumo_version').notNull(),
    stackName: text('stack_name').notNull(),
    /** Set once the cloud accepted the stack. */
    stackId: text('stack_id'),
    status: text('status').notNull(),
    statusUpdatedAt: at('status_updated_at').notNull(),
    capacity: integer('capacity').notNull().default(0),
    /** The query engines' size and how many run (the contract's CLUSTER_SIZES). */
    size: text('size').notNull().default('M'),
    queryEngines: integer('query_engines').notNull().default(5),
    /** The shape an online resize is moving to, until the cloud reports it reached; NULL otherwise. */
    resizeToSize: text('resize_to_size'),
    resizeToEngines: integer('resize_to_engines'),
    /** The resize has not reached the cloud yet. */
    resizeCommandPending: boolean('resize_command_pending').notNull().default(false),
    stackStatus: text('stack_status'),
    deploymentStatus: text('deployment_status'),
    nodes: jsonb('nodes').$type<StoredClusterNode[]>().notNull().default([]),
    managerUrl: text('manager_url'),
    portalUrl: text('portal_url'),
    failureReason: text('failure_reason'),
    /**
     * The admin password, which travels to the cloud through the deployment job: kept only sealed (under the
     * cluster-passwords key) until the cloud has it, then NULL. Never logged.
     */
    sealedPassword: text('sealed_password'),
    /** The portal's own SQL credential for the cluster (console queries), sealed like the password and kept; never shown. */
    sealedSqlCredential: text('sealed_sql_credential'),
    /** The current transition's command (start, stop, delete) has not reached the cloud yet. */
    cloudCommandPending: boolean('cloud_command_pending').notNull().default(false),
    /** Reconciling with the cloud is leased: until this instant only the holder (one claim's token) may write its result. */
    reconcileLeaseUntil: at('reconcile_lease_until'),
    reconcileLeaseHolder: text('reconcile_lease_holder'),
    createdByUserId: uuid('created_by_user_id').notNull(),
    createdAt: at('created_at').notNull(),
    deployedAt: at('deployed_at'),
    deletedAt: at('deleted_at'),
  },
  (table) => [
    index('clusters_account_idx').on(table.accountId, table.createdAt),
    uniqueIndex('clusters_subscription_name_idx')
      .on(table.subscriptionId, sql`lower(${table.name})`)
      .where(sql`deleted_at is null`),
    uniqueIndex('clusters_stack_name_idx').on(table.stackName),
    index('clusters_busy_idx')
      .on(table.status)
      .where(sql`status in ('DEPLOYING','STARTING','STOPPING','DELETING')`),
    check('clusters_capacity_check', sql`${table.capacity} >= 0 and ${table.capacity} <= 5`),
    check('clusters_size_check', sql`${table.size} in ('XS', 'S', 'M', 'L', 'XL') and ${table.queryEngines} between 1 and 5`),
    check('clusters_resize_to_check', sql`(${table.resizeToSize} is null) = (${table.resizeToEngines} is null)`),
    index('clusters_resizing_idx')
      .on(table.id)
      .where(sql`resize_to_size is not null`),
  ],
);

export const clusterAuditLogs = pgTable(
  'cluster_audit_logs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedByDefaultAsIdentity(),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id),
    event: text('event').notNull(),
    description: text('description').notNull(),
    /** The person who caused it; NULL for the system or the schedule. */
    actorUserId: uuid('actor_user_id'),
    /** Who caused it as shown: an e-mail, 'Schedule' or 'System'. */
    actorLabel: text('actor_label').notNull(),
    /** The query engines' cores from this entry on (running, or to run at the next start); NULL before sizes: 80. */
    queryEngineCores: integer('query_engine_cores'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [index('cluster_audit_logs_cluster_idx').on(table.clusterId, table.createdAt, table.seq)],
);

/** A sensitive action waiting for the approver's OTP (customer cluster deletion). */
export const clusterOperations = pgTable(
  'cluster_operations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id),
    actionName: text('action_name').notNull(),
    requestedByUserId: uuid('requested_by_user_id').notNull(),
    approverEmail: text('approver_email').notNull(),
    otpHash: text('otp_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    sendCount: integer('send_count').notNull().default(1),
    firstSentAt: at('first_sent_at').notNull(),
    approvedAt: at('approved_at'),
    createdAt: at('created_at').notNull(),
  },
  (table) => [index('cluster_operations_account_idx').on(table.accountId, table.createdAt)],
);

export const clusterSchedules = pgTable('cluster_schedules', {
  clusterId: uuid('cluster_id')
    .primaryKey()
    .references(() => clusters.id),
  enabled: boolean('enabled').notNull(),
  /** IANA time zone the rules' times are in. */
  timeZone: text('time_zone').notNull(),
  rules: jsonb('rules').$type<{ day: string; action: string; time: string }[]>().notNull(),
  /** Rules due after this instant and up to now are acted on at the next check. */
  lastCheckedAt: at('last_checked_at').notNull(),
  updatedAt: at('updated_at').notNull(),
});

/**
 * A person's level in one cluster's Kumo Manager, once someone has changed it (until then the default of their role,
 * DEFAULT_MANAGER_ACCESS in the contract). `user_id` names a person of the auth module (its foreign key is kept by the
 * migration); rows of people who left the account are kept but no longer read.
 */
export const clusterManagerAccess = pgTable(
  'cluster_manager_access',
  {
    clusterId: uuid('cluster_id')
      .notNull()
      .references(() => clusters.id),
    userId: uuid('user_id').notNull(),
    accessLevel: text('access_level').notNull(),
    updatedByUserId: uuid('updated_by_user_id').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.clusterId, table.userId] }),
    check('cluster_manager_access_level_check', sql`${table.accessLevel} in ('FULL_ADMIN', 'FULL_KMUSER', 'LIMITED', 'NO_ADMIN_ACCESS')`),
  ],
);

/**
 * A cluster's network access list (no row: anywhere, as for every cluster made before the list existed). `version`
 * counts its changes; `cloud_version` is the last the cloud's own firewall was brought to.
 */
export const clusterNetworkAccess = pgTable(
  'cluster_network_access',
  {
    clusterId: uuid('cluster_id')
      .primaryKey()
      .references(() => clusters.id),
    allowAnywhere: boolean('allow_anywhere').notNull(),
    allowed: jsonb('allowed').$type<{ cidr: string; description: string }[]>().notNull(),
    version: integer('version').notNull(),
    cloudVersion: integer('cloud_version').notNull(),
    updatedByUserId: uuid('updated_by_user_id'),
    updatedByLabel: text('updated_by_label'),
    updatedAt: at('updated_at').notNull(),
  },
  (table) => [
    index('cluster_network_access_cloud_idx')
      .on(table.clusterId)
      .where(sql`cloud_version < version`),
    check(
      'cluster_network_access_allowed_check',
      sql`jsonb_typeof(${table.allowed}) = 'array' and jsonb_array_length(${table.allowed}) <= 50`,
    ),
  ],
);

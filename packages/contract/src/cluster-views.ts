import { z } from 'zod';
import { CLUSTER_MESSAGES, MESSAGES } from './messages.js';
import { moneySchema } from './money-schemas.js';
import { clusterSizeSchema } from './cluster-sizes.js';
import { CLOUD_PROVIDERS, CLUSTER_LIMITS, CLUSTER_STATUSES, DEPLOYMENT_STATUSES, STACK_STATUSES } from './cluster-states.js';

// ---------------------------------------------------------------------------------------------
// Clusters, nodes and status
// ---------------------------------------------------------------------------------------------

export const clusterSchema = z
  .object({
    deployment_id: z.uuid(),
    cluster_id: z.string(),
    cluster_name: z.string(),
    cluster_description: z.string(),
    status: z.enum(CLUSTER_STATUSES),
    cluster_status: z.enum(CLUSTER_STATUSES),
    status_update_date: z.iso.datetime(),
    cluster_capacity: z.number().int().min(0).max(CLUSTER_LIMITS.maxCapacity),
    region: z.string(),
    deployment_region: z.string(),
    cloud_provider: z.enum(CLOUD_PROVIDERS),
    /** Present (not null) when disaster recovery is on. */
    backup_region: z.string().nullable(),
    cidr: z.string(),
    kumo_version: z.string(),
    stack_name: z.string(),
    deployed_by: z.string(),
    email_id: z.string(),
    subscription_id: z.uuid(),
    subscription_name: z.string(),
    subscription_balance: moneySchema,
    /**
     * Set only while the cluster is ONLINE: the plain addresses, which open nothing by themselves; each person opens
     * them with a ticket of their own (GET /api/cluster/kumo/sso/{deploymentId}).
     */
    kumo_manager_url: z.string().nullable(),
    kumo_url: z.string().nullable(),
    cluster_stack_status: z.enum(STACK_STATUSES).nullable(),
    kumo_cluster_deployment_status: z.enum(DEPLOYMENT_STATUSES).nullable(),
    created_at: z.iso.datetime(),
    /** When the deployment completed; null until then. */
    deployed_on: z.iso.datetime().nullable(),
    /** The query engines' size and how many run (docs/clusters.md, Sizes). */
    size: clusterSizeSchema,
    query_engines: z.number().int(),
    /** While an online resize is carried out: the shape it goes to; null otherwise. */
    resizing_to: z.object({ size: clusterSizeSchema, query_engines: z.number().int() }).nullable(),
  })
  .meta({ id: 'Cluster' });
export type Cluster = z.infer<typeof clusterSchema>;

export const subscriptionClustersSchema = z
  .object({ subscription_id: z.uuid(), subscription_name: z.string(), clusters: z.array(clusterSchema) })
  .meta({ id: 'SubscriptionClusters' });
export type SubscriptionClusters = z.infer<typeof subscriptionClustersSchema>;
export const clusterViewResponseSchema = z.array(subscriptionClustersSchema).meta({ id: 'ClusterView' });
export type ClusterViewResponse = z.infer<typeof clusterViewResponseSchema>;
export const clusterViewQuerySchema = z.object({ subscriptionId: z.uuid({ error: MESSAGES.subscriptionNotFound }).optional() });

export const deploymentIdParamsSchema = z.object({ deploymentId: z.uuid({ error: CLUSTER_MESSAGES.clusterNotFound }) });

export const deploymentStatusResponseSchema = z
  .object({
    status: z.enum(CLUSTER_STATUSES),
    cluster_capacity: z.number().int(),
    cluster_stack_status: z.enum(STACK_STATUSES).nullable(),
    kumo_cluster_deployment_status: z.enum(DEPLOYMENT_STATUSES).nullable(),
    created_at: z.iso.datetime(),
    completed_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'DeploymentStatus' });
export type DeploymentStatusResponse = z.infer<typeof deploymentStatusResponseSchema>;

export const nodeSchema = z
  .object({
    host: z.string(),
    node_status: z.string(),
    service_name: z.string(),
    status: z.string(),
    instance_type: z.string(),
    core: z.number().int(),
  })
  .meta({ id: 'ClusterNode' });
export type ClusterNode = z.infer<typeof nodeSchema>;

/** A row of the configuration table: one node role of the fixed layout. */
export const clusterConfigurationSchema = z
  .object({ service_name: z.string(), node_count: z.number().int(), instance_type: z.string(), core: z.number().int() })
  .meta({ id: 'ClusterConfiguration' });
export type ClusterConfiguration = z.infer<typeof clusterConfigurationSchema>;

export const CLUSTER_DETAIL_KINDS = ['DEPLOYMENT', 'CURRENT'] as const;
export type ClusterDetailKind = (typeof CLUSTER_DETAIL_KINDS)[number];
export const clusterDetailsQuerySchema = z.object({ detail: z.enum(CLUSTER_DETAIL_KINDS).optional().default('CURRENT') });

export const clusterDetailsResponseSchema = clusterSchema
  .extend({
    detail: z.enum(CLUSTER_DETAIL_KINDS),
    cluster_configurations: z.array(clusterConfigurationSchema),
    nodes: z.array(nodeSchema),
    /** The cluster's SQL endpoint (docs/clusters.md, "The SQL endpoint"); null while the cloud has given it none. */
    sql_endpoint: z.string().nullable(),
    /** The endpoint's user; its password is the one chosen at creation (or since reset). */
    sql_user: z.string(),
  })
  .meta({ id: 'ClusterDetails' });
export type ClusterDetailsResponse = z.infer<typeof clusterDetailsResponseSchema>;

export const clusterActionResponseSchema = z
  .object({ deployment_id: z.uuid(), status: z.enum(CLUSTER_STATUSES), message: z.string() })
  .meta({ id: 'ClusterActionResult' });
export type ClusterActionResponse = z.infer<typeof clusterActionResponseSchema>;

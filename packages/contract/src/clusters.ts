import { z } from 'zod';
import { pageQuerySchema } from './paging.js';
import { PAGE_SIZES } from './constants.js';
import { CLUSTER_MESSAGES, MESSAGES } from './messages.js';
import { MINIMUM_BALANCE_CENTS, moneySchema } from './money.js';

/** Limits of the create-cluster form (spec sections 5 and 9, decisions.md). */
export const CLUSTER_LIMITS = {
  nameMinLength: 3,
  nameMaxLength: 50,
  descriptionMaxLength: 200,
  passwordMinLength: 12,
  passwordMaxLength: 64,
  /** Below this balance (cents) a cluster can be neither created nor started. */
  minimumBalanceCents: MINIMUM_BALANCE_CENTS,
  /** Capacity is how many query engines are up (0..5). */
  maxCapacity: 5,
  /**
   * AWS accepts VPC blocks from /16 to /28, but the deployment template cuts a public and a private subnet of a
   * quarter each, and a subnet is at least a /28: the cluster's block is a /16 to a /26.
   */
  cidrMinPrefix: 16,
  cidrMaxPrefix: 26,
} as const;

export const CLOUD_PROVIDERS = ['AWS', 'AZURE'] as const;
export type CloudProvider = (typeof CLOUD_PROVIDERS)[number];
/** Only AWS is offered for creation. */
export const CREATABLE_CLOUD_PROVIDERS = ['AWS'] as const;
export const CLOUD_PROVIDER_LABELS: Record<CloudProvider, string> = { AWS: 'AWS', AZURE: 'Azure' };

// ---------------------------------------------------------------------------------------------
// States (spec section 4)
// ---------------------------------------------------------------------------------------------

export const CLUSTER_STATUSES = [
  'DEPLOYING',
  'ONLINE',
  'OFFLINE',
  'FAILED',
  'STARTING',
  'STOPPING',
  'DELETING',
  'DELETE_IN_PROGRESS',
  'DELETED_PARTIALLY',
  'DELETED',
] as const;
export type ClusterStatus = (typeof CLUSTER_STATUSES)[number];

export const CLUSTER_STATUS_LABELS: Record<ClusterStatus, string> = {
  DEPLOYING: 'Deploying...',
  ONLINE: 'Online',
  OFFLINE: 'Offline',
  FAILED: 'Deployment Failed',
  STARTING: 'Starting...',
  STOPPING: 'Stopping...',
  DELETING: 'Deleting...',
  DELETE_IN_PROGRESS: 'Deleting...',
  DELETED_PARTIALLY: 'Deleted',
  DELETED: 'Deleted',
};

/** Colour names of the status text: ONLINE green; OFFLINE and FAILED red; the rest neutral. */
export const CLUSTER_STATUS_COLORS: Record<ClusterStatus, 'green' | 'red' | 'gray' | 'blue'> = {
  DEPLOYING: 'blue',
  ONLINE: 'green',
  OFFLINE: 'red',
  FAILED: 'red',
  STARTING: 'blue',
  STOPPING: 'blue',
  DELETING: 'gray',
  DELETE_IN_PROGRESS: 'gray',
  DELETED_PARTIALLY: 'gray',
  DELETED: 'gray',
};

/** Statuses shown with animated dots (work in progress). */
export const BUSY_CLUSTER_STATUSES: readonly ClusterStatus[] = ['DEPLOYING', 'STARTING', 'STOPPING', 'DELETING', 'DELETE_IN_PROGRESS'];
/** Statuses the console polls every 15 seconds. */
export const POLLED_CLUSTER_STATUSES: readonly ClusterStatus[] = BUSY_CLUSTER_STATUSES;
/** A cluster in one of these is gone for the customer. */
export const GONE_CLUSTER_STATUSES: readonly ClusterStatus[] = ['DELETED', 'DELETED_PARTIALLY'];

export const isClusterBusy = (status: ClusterStatus) => BUSY_CLUSTER_STATUSES.includes(status);
export const isClusterGone = (status: ClusterStatus) => GONE_CLUSTER_STATUSES.includes(status);

/** What a customer may do in each status (spec section 4 and decisions.md: stop only when ONLINE). */
export const CLUSTER_ACTIONS = {
  start: ['OFFLINE'] as readonly ClusterStatus[],
  stop: ['ONLINE'] as readonly ClusterStatus[],
  delete: ['ONLINE', 'OFFLINE', 'FAILED'] as readonly ClusterStatus[],
} as const;
export type ClusterAction = keyof typeof CLUSTER_ACTIONS;
export const canClusterDo = (action: ClusterAction, status: ClusterStatus) => CLUSTER_ACTIONS[action].includes(status);

export const STACK_STATUSES = [
  'CREATE_IN_PROGRESS',
  'CREATE_COMPLETE',
  'CREATE_FAILED',
  'ROLLBACK_IN_PROGRESS',
  'ROLLBACK_FAILED',
  'ROLLBACK_COMPLETE',
  'EXCEPTION',
  'DELETE_IN_PROGRESS',
  'DELETE_COMPLETE',
  'DELETE_FAILED',
] as const;
export type StackStatus = (typeof STACK_STATUSES)[number];
/** Stack statuses that mean creation failed (the deployment step shows Failed). */
export const FAILED_STACK_STATUSES: readonly StackStatus[] = [
  'CREATE_FAILED',
  'ROLLBACK_IN_PROGRESS',
  'ROLLBACK_FAILED',
  'ROLLBACK_COMPLETE',
  'EXCEPTION',
];

export const DEPLOYMENT_STATUSES = [
  'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS',
  'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
  'KUMO_CLUSTER_DEPLOYMENT_FAILED',
  'KUMO_CLUSTER_DEPLOYMENT_EXCEPTION',
] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];
export const FAILED_DEPLOYMENT_STATUSES: readonly DeploymentStatus[] = [
  'KUMO_CLUSTER_DEPLOYMENT_FAILED',
  'KUMO_CLUSTER_DEPLOYMENT_EXCEPTION',
];

/** The three deployment steps of the details tab and the state of each icon. */
export type DeploymentStepState = 'default' | 'progress' | 'success' | 'error';
export const DEPLOYMENT_STEP_LABELS = ['Submitting resource creation request', 'Creating resources', 'Deploying the product'] as const;

export function deploymentSteps(stack: StackStatus | null, deployment: DeploymentStatus | null): DeploymentStepState[] {
  const stackState: DeploymentStepState =
    stack === null ? 'progress' : FAILED_STACK_STATUSES.includes(stack) ? 'error' : stack === 'CREATE_IN_PROGRESS' ? 'progress' : 'success';
  const deploymentState: DeploymentStepState =
    stackState !== 'success' || deployment === null
      ? 'default'
      : FAILED_DEPLOYMENT_STATUSES.includes(deployment)
        ? 'error'
        : deployment === 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'
          ? 'success'
          : 'progress';
  return ['success', stackState, deploymentState];
}

/** The name of a capacity level, 0 to 5 (spec section 4): each level lights that many bars. */
export function capacityLabel(level: number): 'Zero' | 'Low' | 'Moderate' | 'High' | 'Full' {
  if (level <= 0) return 'Zero';
  if (level <= 2) return 'Low';
  if (level === 3) return 'Moderate';
  if (level === 4) return 'High';
  return 'Full';
}

export const NODE_ROLES = ['BI_SERVER', 'QUERY_ENGINE', 'BUILD', 'PERIPHERAL'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

// ---------------------------------------------------------------------------------------------
// Create form (spec section 5)
// ---------------------------------------------------------------------------------------------

// Three letters, then up to 47 letters, digits, dashes, underscores or spaces.
export const CLUSTER_NAME_PATTERN = /^[A-Za-z]{3}[A-Za-z0-9 _-]{0,47}$/;
// x.x.x.x/n, each octet 0-255 (no leading zeros), prefix 0-32.
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
export const CIDR_PATTERN = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}\\/(?:3[0-2]|[12]?\\d)$`);
export const PASSWORD_SPECIAL_CHARACTERS = '#?!@$%^&*-';

/** The live checks of the password tooltip; every one must pass. */
export const PASSWORD_CHECKS = [
  {
    id: 'length',
    label: `At least ${CLUSTER_LIMITS.passwordMinLength} characters`,
    test: (p: string) => p.length >= CLUSTER_LIMITS.passwordMinLength,
  },
  { id: 'uppercase', label: 'An uppercase letter', test: (p: string) => /[A-Z]/.test(p) },
  { id: 'digit', label: 'A digit', test: (p: string) => /\d/.test(p) },
  { id: 'special', label: `A special character (${PASSWORD_SPECIAL_CHARACTERS})`, test: (p: string) => /[#?!@$%^&*-]/.test(p) },
  { id: 'spaces', label: 'No spaces', test: (p: string) => !/\s/.test(p) },
] as const;

export const passwordPasses = (password: string) => PASSWORD_CHECKS.every((check) => check.test(password));

/** Keystroke filter of the CIDR field: digits, dots and a slash only. */
export function normalizeCidrInput(raw: string): string {
  return raw.replace(/[^\d./]/g, '').slice(0, 18);
}

/** Keystroke filter of the cluster name: no leading spaces, at most 50 characters. */
export function normalizeClusterNameInput(raw: string): string {
  return raw.replace(/^\s+/, '').slice(0, CLUSTER_LIMITS.nameMaxLength);
}

/** Keystroke filter of the password fields: spaces are blocked. */
export function normalizePasswordInput(raw: string): string {
  return raw.replace(/\s/g, '').slice(0, CLUSTER_LIMITS.passwordMaxLength);
}

export const clusterNameSchema = z
  .string({ error: CLUSTER_MESSAGES.nameRequired })
  .trim()
  .min(1, CLUSTER_MESSAGES.nameRequired)
  .min(CLUSTER_LIMITS.nameMinLength, CLUSTER_MESSAGES.nameLength)
  .max(CLUSTER_LIMITS.nameMaxLength, CLUSTER_MESSAGES.nameLength)
  .regex(CLUSTER_NAME_PATTERN, CLUSTER_MESSAGES.nameFormat);

export const clusterDescriptionSchema = z
  .string({ error: CLUSTER_MESSAGES.descriptionTooLong })
  .trim()
  .max(CLUSTER_LIMITS.descriptionMaxLength, CLUSTER_MESSAGES.descriptionTooLong);

export const cidrSchema = z
  .string({ error: CLUSTER_MESSAGES.cidrRequired })
  .trim()
  .min(1, CLUSTER_MESSAGES.cidrRequired)
  .regex(CIDR_PATTERN, CLUSTER_MESSAGES.cidrFormat);

export const clusterPasswordSchema = z
  .string({ error: CLUSTER_MESSAGES.passwordRequired })
  .min(1, CLUSTER_MESSAGES.passwordRequired)
  .max(CLUSTER_LIMITS.passwordMaxLength, CLUSTER_MESSAGES.passwordFormat)
  .refine(passwordPasses, CLUSTER_MESSAGES.passwordFormat);

/** Parses "a.b.c.d/n" into its network address (as an unsigned 32-bit number) and prefix. */
export function parseCidr(cidr: string): { base: number; prefix: number } | null {
  if (!CIDR_PATTERN.test(cidr)) return null;
  const [address, prefixText] = cidr.split('/') as [string, string];
  const octets = address.split('.').map(Number);
  const value = ((octets[0]! << 24) >>> 0) + (octets[1]! << 16) + (octets[2]! << 8) + octets[3]!;
  const prefix = Number(prefixText);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { base: (value & mask) >>> 0, prefix };
}

/** Whether two CIDR blocks share any address. */
export function cidrsOverlap(a: string, b: string): boolean {
  const x = parseCidr(a);
  const y = parseCidr(b);
  if (!x || !y) return false;
  const prefix = Math.min(x.prefix, y.prefix);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (x.base & mask) >>> 0 === (y.base & mask) >>> 0;
}

/** Whether a CIDR's prefix is one a cluster's VPC can have (see cidrMaxPrefix). */
export function cidrPrefixAllowed(cidr: string): boolean {
  const parsed = parseCidr(cidr);
  return !!parsed && parsed.prefix >= CLUSTER_LIMITS.cidrMinPrefix && parsed.prefix <= CLUSTER_LIMITS.cidrMaxPrefix;
}

const subscriptionIdField = z.uuid({ error: CLUSTER_MESSAGES.subscriptionRequired });

/** The body of POST /api/cluster/create. Server-side rules that need data (balance, regions, overlap, name taken) come on top. */
export const createClusterRequestSchema = z
  .object({
    subscription_id: subscriptionIdField,
    cluster_name: clusterNameSchema,
    description: clusterDescriptionSchema.optional().default(''),
    cloud_provider: z.enum(CREATABLE_CLOUD_PROVIDERS, { error: CLUSTER_MESSAGES.cloudProviderUnsupported }),
    enable_dr_flag: z.boolean({ error: MESSAGES.validationFailed }).optional().default(false),
    cidr: cidrSchema,
    region: z.string({ error: CLUSTER_MESSAGES.regionRequired }).trim().min(1, CLUSTER_MESSAGES.regionRequired),
    backup_region: z.string().trim().nullable().optional().default(null),
    password: clusterPasswordSchema,
    kumo_version: z.string({ error: CLUSTER_MESSAGES.versionRequired }).trim().min(1, CLUSTER_MESSAGES.versionRequired),
  })
  .superRefine((body, ctx) => {
    if (body.enable_dr_flag && !body.backup_region) {
      ctx.addIssue({ code: 'custom', path: ['backup_region'], message: CLUSTER_MESSAGES.backupRegionRequired });
    }
    if (!body.enable_dr_flag && body.backup_region) {
      ctx.addIssue({ code: 'custom', path: ['backup_region'], message: CLUSTER_MESSAGES.backupRegionWithoutDr });
    }
    if (body.cidr && CIDR_PATTERN.test(body.cidr) && !cidrPrefixAllowed(body.cidr)) {
      ctx.addIssue({ code: 'custom', path: ['cidr'], message: CLUSTER_MESSAGES.cidrPrefixRange });
    }
  })
  .meta({ id: 'CreateClusterRequest' });
export type CreateClusterRequest = z.input<typeof createClusterRequestSchema>;
export type CreateClusterOrder = z.output<typeof createClusterRequestSchema>;

/** The console's form: the request plus the confirmation field, named as the spec names them. */
export const createClusterFormSchema = z
  .object({
    selectedSubscription: subscriptionIdField,
    cluster_name: clusterNameSchema,
    description: clusterDescriptionSchema,
    cloud_provider: z.enum(CREATABLE_CLOUD_PROVIDERS, { error: CLUSTER_MESSAGES.cloudProviderUnsupported }),
    enableDrFlag: z.boolean(),
    cidr: cidrSchema,
    region: z.string().trim().min(1, CLUSTER_MESSAGES.regionRequired),
    backupRegion: z.string().trim().nullable(),
    password: clusterPasswordSchema,
    confirm_password: z.string().min(1, CLUSTER_MESSAGES.confirmPasswordRequired),
    kumo_version: z.string().trim().min(1, CLUSTER_MESSAGES.versionRequired),
  })
  .superRefine((form, ctx) => {
    if (form.confirm_password && form.password !== form.confirm_password) {
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: CLUSTER_MESSAGES.passwordMismatch });
    }
    if (form.enableDrFlag && !form.backupRegion) {
      ctx.addIssue({ code: 'custom', path: ['backupRegion'], message: CLUSTER_MESSAGES.backupRegionRequired });
    }
    if (CIDR_PATTERN.test(form.cidr) && !cidrPrefixAllowed(form.cidr)) {
      ctx.addIssue({ code: 'custom', path: ['cidr'], message: CLUSTER_MESSAGES.cidrPrefixRange });
    }
  });
export type CreateClusterForm = z.input<typeof createClusterFormSchema>;

/** Maps the form onto the request body (backup_region null when disaster recovery is off). */
export function createClusterRequestFromForm(form: CreateClusterForm): CreateClusterRequest {
  return {
    subscription_id: form.selectedSubscription,
    cluster_name: form.cluster_name.trim(),
    description: form.description.trim(),
    cloud_provider: form.cloud_provider,
    enable_dr_flag: form.enableDrFlag,
    cidr: form.cidr.trim(),
    region: form.region,
    backup_region: form.enableDrFlag ? form.backupRegion : null,
    password: form.password,
    kumo_version: form.kumo_version,
  };
}

export const createClusterResponseSchema = z
  .object({ deployment_id: z.uuid(), subscription_id: z.uuid(), message: z.string() })
  .meta({ id: 'CreateClusterResponse' });
export type CreateClusterResponse = z.infer<typeof createClusterResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Regions, CIDR suggestion and versions
// ---------------------------------------------------------------------------------------------

export const cloudProviderQuerySchema = z.object({
  cloudProvider: z.enum(CLOUD_PROVIDERS, { error: CLUSTER_MESSAGES.cloudProviderUnsupported }).optional().default('AWS'),
});

export const regionMappingSchema = z
  .object({ region_mapping: z.array(z.object({ region: z.string(), backup_regions: z.array(z.string()) })) })
  .meta({ id: 'RegionMapping' });
export type RegionMapping = z.infer<typeof regionMappingSchema>;

const booleanText = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

export const cidrQuerySchema = z.object({
  deploymentRegion: z.string({ error: CLUSTER_MESSAGES.regionRequired }).trim().min(1, CLUSTER_MESSAGES.regionRequired),
  backupRegion: z.string().trim().optional(),
  enableDrFlag: booleanText.optional().default(false),
  cloudProvider: z.enum(CLOUD_PROVIDERS, { error: CLUSTER_MESSAGES.cloudProviderUnsupported }).optional().default('AWS'),
});
export const cidrResponseSchema = z.object({ cidr: z.string() }).meta({ id: 'CidrSuggestion' });
export type CidrResponse = z.infer<typeof cidrResponseSchema>;

export const eaVersionResponseSchema = z.object({ kumo_ea_version_enabled: z.boolean() }).meta({ id: 'EaVersionFlag' });
export type EaVersionResponse = z.infer<typeof eaVersionResponseSchema>;

export const kumoVersionSchema = z
  .object({ version: z.string(), description: z.string(), default: z.boolean() })
  .meta({ id: 'KumoVersion' });
export type KumoVersion = z.infer<typeof kumoVersionSchema>;
export const kumoVersionsResponseSchema = z.object({ kumo_versions: z.array(kumoVersionSchema) }).meta({ id: 'KumoVersions' });
export type KumoVersionsResponse = z.infer<typeof kumoVersionsResponseSchema>;

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
    /** Set only while the cluster is ONLINE. */
    kumo_manager_url: z.string().nullable(),
    kumo_url: z.string().nullable(),
    cluster_stack_status: z.enum(STACK_STATUSES).nullable(),
    kumo_cluster_deployment_status: z.enum(DEPLOYMENT_STATUSES).nullable(),
    created_at: z.iso.datetime(),
    /** When the deployment completed; null until then. */
    deployed_on: z.iso.datetime().nullable(),
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
  })
  .meta({ id: 'ClusterDetails' });
export type ClusterDetailsResponse = z.infer<typeof clusterDetailsResponseSchema>;

export const clusterActionResponseSchema = z
  .object({ deployment_id: z.uuid(), status: z.enum(CLUSTER_STATUSES), message: z.string() })
  .meta({ id: 'ClusterActionResult' });
export type ClusterActionResponse = z.infer<typeof clusterActionResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Delete with the approver's OTP
// ---------------------------------------------------------------------------------------------

export const OPERATION_ACTIONS = ['customer_delete_cluster'] as const;
export const OPERATION_STATUSES = ['PENDING_APPROVAL', 'APPROVED', 'EXPIRED'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

export const createOperationRequestSchema = z
  .object({
    action_name: z.enum(OPERATION_ACTIONS, { error: CLUSTER_MESSAGES.operationUnknown }),
    action_payload: z.object({ deployment_id: z.uuid({ error: CLUSTER_MESSAGES.clusterNotFound }) }),
  })
  .meta({ id: 'CreateOperationRequest' });
export type CreateOperationRequest = z.infer<typeof createOperationRequestSchema>;

export const createOperationResponseSchema = z
  .object({ operation_id: z.uuid(), message: z.string() })
  .meta({ id: 'CreateOperationResponse' });
export type CreateOperationResponse = z.infer<typeof createOperationResponseSchema>;

const operationIdField = z.uuid({ error: CLUSTER_MESSAGES.operationNotFound });
export const authenticateOperationRequestSchema = z
  .object({
    operation_id: operationIdField,
    otp: z
      .string({ error: MESSAGES.otpRequired })
      .trim()
      .min(1, MESSAGES.otpRequired)
      .regex(/^\d{6}$/, MESSAGES.otpFormat),
  })
  .meta({ id: 'AuthenticateOperationRequest' });
export type AuthenticateOperationRequest = z.infer<typeof authenticateOperationRequestSchema>;
export const resendOperationOtpRequestSchema = z.object({ operation_id: operationIdField }).meta({ id: 'ResendOperationOtpRequest' });
export type ResendOperationOtpRequest = z.infer<typeof resendOperationOtpRequestSchema>;

export const operationResultSchema = z
  .object({ operation_id: z.uuid(), status: z.enum(OPERATION_STATUSES), message: z.string() })
  .meta({ id: 'OperationResult' });
export type OperationResult = z.infer<typeof operationResultSchema>;

export const operationIdParamsSchema = z.object({ operationId: operationIdField });
export const operationStatusResponseSchema = z
  .object({
    operation_id: z.uuid(),
    action_name: z.enum(OPERATION_ACTIONS),
    status: z.enum(OPERATION_STATUSES),
    deployment_id: z.uuid(),
    cluster_name: z.string(),
    subscription_name: z.string(),
    cluster_status: z.enum(CLUSTER_STATUSES),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'OperationStatus' });
export type OperationStatusResponse = z.infer<typeof operationStatusResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Audit logs
// ---------------------------------------------------------------------------------------------

export const AUDIT_EVENTS = [
  'CLUSTER_CREATE_REQUESTED',
  'CLUSTER_RESOURCES_CREATED',
  'CLUSTER_DEPLOYED',
  'CLUSTER_DEPLOYMENT_FAILED',
  'CLUSTER_START_REQUESTED',
  'CLUSTER_STARTED',
  'CLUSTER_STOP_REQUESTED',
  'CLUSTER_STOPPED',
  'CLUSTER_DELETE_REQUESTED',
  'CLUSTER_DELETE_APPROVED',
  'CLUSTER_DELETED',
  'CLUSTER_SCHEDULE_CHANGED',
] as const;
export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/** Each event in a few words, as the timeline names it. */
export const AUDIT_EVENT_LABELS: Record<AuditEvent, string> = {
  CLUSTER_CREATE_REQUESTED: 'Deployment requested',
  CLUSTER_RESOURCES_CREATED: 'Resources created',
  CLUSTER_DEPLOYED: 'Deployed',
  CLUSTER_DEPLOYMENT_FAILED: 'Deployment failed',
  CLUSTER_START_REQUESTED: 'Start requested',
  CLUSTER_STARTED: 'Started',
  CLUSTER_STOP_REQUESTED: 'Stop requested',
  CLUSTER_STOPPED: 'Stopped',
  CLUSTER_DELETE_REQUESTED: 'Deletion requested',
  CLUSTER_DELETE_APPROVED: 'Deletion approved',
  CLUSTER_DELETED: 'Deleted',
  CLUSTER_SCHEDULE_CHANGED: 'Schedule changed',
};

/** startDate as the console sends it: the first of a month at midnight, e.g. 2026-11-01T00:00:00. */
export const auditLogQuerySchema = pageQuerySchema(PAGE_SIZES.auditLogs).extend({
  startDate: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])-01(T00:00:00(\.000)?Z?)?$/, CLUSTER_MESSAGES.auditStartDateFormat)
    .optional(),
});

export const auditLogEntrySchema = z
  .object({
    audit_id: z.uuid(),
    date: z.iso.datetime(),
    event: z.enum(AUDIT_EVENTS),
    description: z.string(),
    /** Who caused it: a person's e-mail, 'Schedule' or 'System'. */
    caused_by: z.string(),
  })
  .meta({ id: 'AuditLogEntry' });
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const auditLogResponseSchema = z
  .object({
    page_content: z.object({ content: z.array(auditLogEntrySchema), totalPages: z.number().int() }),
    start_date: z.iso.datetime(),
    end_date: z.iso.datetime(),
  })
  .meta({ id: 'AuditLogPage' });
export type AuditLogResponse = z.infer<typeof auditLogResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Timeline (beyond the spec): lifecycle events, deployment steps and each day's charges, newest first
// ---------------------------------------------------------------------------------------------

/** Calendar days (UTC, the days charges are billed in) per page of the timeline. */
export const TIMELINE_DAYS_PER_PAGE = 14;

/** The audit events that are deployment steps: each completes (or fails) one of DEPLOYMENT_STEP_LABELS. */
export const DEPLOYMENT_STEP_EVENTS: readonly AuditEvent[] = [
  'CLUSTER_CREATE_REQUESTED',
  'CLUSTER_RESOURCES_CREATED',
  'CLUSTER_DEPLOYED',
  'CLUSTER_DEPLOYMENT_FAILED',
];

/** `before`: the page ends before this UTC day; absent, it ends with today. */
export const timelineQuerySchema = z.object({ before: z.iso.date({ error: CLUSTER_MESSAGES.timelineBeforeFormat }).optional() });

export const timelineEntrySchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('EVENT'),
      at: z.iso.datetime(),
      event: z.enum(AUDIT_EVENTS),
      description: z.string(),
      caused_by: z.string(),
    }),
    z.object({
      kind: z.literal('DEPLOYMENT_STEP'),
      /** When the step finished, or when it began while it is still in progress. */
      at: z.iso.datetime(),
      step: z.enum(DEPLOYMENT_STEP_LABELS),
      state: z.enum(['success', 'progress', 'error']),
      description: z.string(),
      caused_by: z.string(),
    }),
    /** The day's charges of this cluster so far, from the same rollups as the cost screens. */
    z.object({ kind: z.literal('CHARGE'), amount: moneySchema }),
  ])
  .meta({ id: 'ClusterTimelineEntry' });
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const timelineResponseSchema = z
  .object({
    deployment_id: z.uuid(),
    /** Days with something on them, newest first; within a day the charge first, then events newest first. */
    days: z.array(z.object({ day: z.iso.date(), entries: z.array(timelineEntrySchema) })),
    /** The `before` of the next (older) page; null once the page reaches the cluster's creation. */
    next_before: z.iso.date().nullable(),
  })
  .meta({ id: 'ClusterTimeline' });
export type TimelineResponse = z.infer<typeof timelineResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Weekly start/stop schedule (beyond the spec), in the customer's time zone
// ---------------------------------------------------------------------------------------------

export const WEEK_DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
export const SCHEDULE_ACTIONS = ['START', 'STOP'] as const;
export type ScheduleAction = (typeof SCHEDULE_ACTIONS)[number];

export const scheduleRuleSchema = z.object({
  day: z.enum(WEEK_DAYS, { error: CLUSTER_MESSAGES.scheduleInvalid }),
  action: z.enum(SCHEDULE_ACTIONS, { error: CLUSTER_MESSAGES.scheduleInvalid }),
  /** Local time of day, HH:MM (24 h). */
  time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, CLUSTER_MESSAGES.scheduleTimeFormat),
});
export type ScheduleRule = z.infer<typeof scheduleRuleSchema>;

export const putScheduleRequestSchema = z
  .object({
    enabled: z.boolean({ error: MESSAGES.validationFailed }),
    /** IANA time zone; defaults to the userTimeZone header. */
    time_zone: z.string().trim().min(1).max(64).optional(),
    rules: z.array(scheduleRuleSchema).max(28, CLUSTER_MESSAGES.scheduleTooManyRules),
  })
  .meta({ id: 'PutClusterScheduleRequest' });
export type PutScheduleRequest = z.infer<typeof putScheduleRequestSchema>;

export const scheduleResponseSchema = z
  .object({
    deployment_id: z.uuid(),
    enabled: z.boolean(),
    time_zone: z.string(),
    rules: z.array(scheduleRuleSchema),
    /** The next time the schedule will act, if any. */
    next_run_at: z.iso.datetime().nullable(),
    next_action: z.enum(SCHEDULE_ACTIONS).nullable(),
  })
  .meta({ id: 'ClusterSchedule' });
export type ScheduleResponse = z.infer<typeof scheduleResponseSchema>;

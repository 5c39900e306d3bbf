import { z } from 'zod';
import { CLUSTER_MESSAGES, MESSAGES } from './messages.js';
import { CLOUD_PROVIDERS, CLUSTER_LIMITS, CREATABLE_CLOUD_PROVIDERS } from './cluster-states.js';
import { networkAccessSchema } from './cluster-network.js';
import { DEFAULT_CLUSTER_SIZE, QUERY_ENGINE_LIMITS, clusterSizeSchema, queryEnginesSchema } from './cluster-sizes.js';

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
    network_access: networkAccessSchema.optional().meta({ description: 'Who may reach the cluster; left out: anywhere.' }),
    size: clusterSizeSchema.optional().default(DEFAULT_CLUSTER_SIZE).meta({ description: 'Size of the query engines; left out: M.' }),
    query_engines: queryEnginesSchema
      .optional()
      .default(QUERY_ENGINE_LIMITS.default)
      .meta({ description: 'How many query engines run (1-5); left out: 5.' }),
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
    network_access: networkAccessSchema,
    size: clusterSizeSchema,
    query_engines: queryEnginesSchema,
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
    network_access: form.network_access,
    size: form.size,
    query_engines: form.query_engines,
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

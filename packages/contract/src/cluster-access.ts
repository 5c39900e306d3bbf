import { z } from 'zod';
import { CLUSTER_MESSAGES } from './messages.js';
import { CUSTOMER_ROLES, type CustomerRole } from './roles.js';

// ---------------------------------------------------------------------------------------------
// Manager access levels per cluster and per person (spec sections 5 and 6)
// ---------------------------------------------------------------------------------------------

/**
 * What a person may do in one cluster's Kumo Manager: full admin, full kmuser (every right of the manager's own
 * kmuser account), limited (monitor, view logs, modify some properties) or no admin access (not let in).
 */
export const MANAGER_ACCESS_LEVELS = ['FULL_ADMIN', 'FULL_KMUSER', 'LIMITED', 'NO_ADMIN_ACCESS'] as const;
export type ManagerAccessLevel = (typeof MANAGER_ACCESS_LEVELS)[number];

export const MANAGER_ACCESS_LABELS: Record<ManagerAccessLevel, string> = {
  FULL_ADMIN: 'Full admin',
  FULL_KMUSER: 'Full kmuser',
  LIMITED: 'Limited',
  NO_ADMIN_ACCESS: 'No admin access',
};

export const MANAGER_ACCESS_DESCRIPTIONS: Record<ManagerAccessLevel, string> = {
  FULL_ADMIN: 'Administers the manager: its users, security and every property.',
  FULL_KMUSER: "Every right of the manager's own kmuser account.",
  LIMITED: 'Monitor, view logs and modify some properties.',
  NO_ADMIN_ACCESS: 'Cannot open the manager.',
};

/** The levels that keep administrative privileges: a cluster always has at least one person holding one. */
export function isAdministrativeLevel(level: ManagerAccessLevel): boolean {
  return level === 'FULL_ADMIN' || level === 'FULL_KMUSER';
}

/** Whether the level lets its holder open the manager at all. */
export const canOpenManager = (level: ManagerAccessLevel): boolean => level !== 'NO_ADMIN_ACCESS';

/** A person's level until someone changes it: the owner is the manager's kmuser, admins administer it, members stay out. */
export const DEFAULT_MANAGER_ACCESS: Record<CustomerRole, ManagerAccessLevel> = {
  ACCOUNT_OWNER: 'FULL_KMUSER',
  ACCOUNT_ADMIN: 'FULL_ADMIN',
  CLUSTER_MEMBER: 'NO_ADMIN_ACCESS',
};

/** The levels after the changes are applied: kept only if someone still holds an administrative level. */
export function keepsAnAdministrator(
  current: readonly { user_id: string; access_level: ManagerAccessLevel }[],
  changes: readonly { user_id: string; access_level: ManagerAccessLevel }[],
): boolean {
  const changed = new Map(changes.map((change) => [change.user_id, change.access_level]));
  return current.some((person) => isAdministrativeLevel(changed.get(person.user_id) ?? person.access_level));
}

const accessLevelSchema = z.enum(MANAGER_ACCESS_LEVELS, { error: CLUSTER_MESSAGES.managerAccessLevelInvalid });

export const managerAccessUserSchema = z.object({
  user_id: z.uuid(),
  user_name: z.string(),
  email_id: z.string(),
  role: z.enum(CUSTOMER_ROLES),
  access_level: accessLevelSchema,
});
export type ManagerAccessUser = z.infer<typeof managerAccessUserSchema>;

/** GET and PUT /api/cluster/manager-access/{deploymentId}: every person of the account with their level on this cluster. */
export const managerAccessResponseSchema = z
  .object({
    deployment_id: z.uuid(),
    users: z.array(managerAccessUserSchema),
    /** The caller's own level on this cluster's manager. */
    my_access_level: accessLevelSchema,
  })
  .meta({ id: 'ClusterManagerAccess' });
export type ManagerAccessResponse = z.infer<typeof managerAccessResponseSchema>;

/** PUT /api/cluster/manager-access/{deploymentId}: the people whose level changes; everyone else keeps theirs. */
export const putManagerAccessRequestSchema = z
  .object({
    changes: z
      .array(z.object({ user_id: z.uuid({ error: CLUSTER_MESSAGES.managerAccessUserUnknown }), access_level: accessLevelSchema }))
      .min(1, CLUSTER_MESSAGES.managerAccessNothingChanged)
      .max(500)
      .refine(
        (changes) => new Set(changes.map((change) => change.user_id)).size === changes.length,
        CLUSTER_MESSAGES.managerAccessDuplicate,
      ),
  })
  .meta({ id: 'PutClusterManagerAccessRequest' });
export type PutManagerAccessRequest = z.infer<typeof putManagerAccessRequestSchema>;

/** The cluster's own pages a single-sign-on ticket opens. */
export const MANAGER_TICKET_PAGES = ['manager', 'portal'] as const;
export type ManagerTicketPage = (typeof MANAGER_TICKET_PAGES)[number];

/** GET /api/cluster/kumo/sso/{deploymentId}?page=manager|portal (manager unless said). */
export const clusterSsoQuerySchema = z.object({
  page: z.enum(MANAGER_TICKET_PAGES, { error: CLUSTER_MESSAGES.managerPageInvalid }).default('manager'),
});

/**
 * The page's address with a ticket of the caller's own, valid until expires_at (a minute): it names the person and,
 * for the manager, their level on this cluster, which the manager shows and enforces. Open it at once.
 */
export const clusterSsoResponseSchema = z
  .object({ url: z.url(), expires_at: z.iso.datetime(), access_level: accessLevelSchema })
  .meta({ id: 'ClusterSso' });
export type ClusterSsoResponse = z.infer<typeof clusterSsoResponseSchema>;

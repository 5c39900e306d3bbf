export const CUSTOMER_ROLES = ['ACCOUNT_OWNER', 'ACCOUNT_ADMIN', 'CLUSTER_MEMBER'] as const;
export const SYSTEM_ROLES = ['SYSTEM_ADMIN', 'SYSTEM_DEVOPS', 'SYSTEM_SUPPORT', 'SYSTEM_BILLING'] as const;
export const ROLES = [...CUSTOMER_ROLES, ...SYSTEM_ROLES] as const;

export type CustomerRole = (typeof CUSTOMER_ROLES)[number];
export type SystemRole = (typeof SYSTEM_ROLES)[number];
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  ACCOUNT_OWNER: 'Account Owner',
  ACCOUNT_ADMIN: 'Account Admin',
  CLUSTER_MEMBER: 'Cluster Member',
  SYSTEM_ADMIN: 'System Admin',
  SYSTEM_DEVOPS: 'System DevOps',
  SYSTEM_SUPPORT: 'System Support',
  SYSTEM_BILLING: 'System Billing',
};

export function isSystemRole(role: string): role is SystemRole {
  return (SYSTEM_ROLES as readonly string[]).includes(role);
}

/** Roles that may enter the customer area (spec section 6). */
export function canUseCustomerArea(role: string): boolean {
  return role === 'ACCOUNT_OWNER' || role === 'ACCOUNT_ADMIN';
}

export const AUTH_PROVIDERS = ['EMAIL_OTP_AUTH', 'AZURE_AUTH'] as const;

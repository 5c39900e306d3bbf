import { z } from 'zod';
import type { SystemRole } from './roles.js';

export const PERMISSION_STATES = ['ENABLED', 'DISABLED', 'HIDDEN'] as const;
export type PermissionState = (typeof PERMISSION_STATES)[number];

interface PermissionNode {
  key: string;
  name: string;
  children?: PermissionNode[];
}

/** The admin area's features as a tree: a child is never more available than its parent. */
export const PERMISSION_TREE: PermissionNode = {
  key: 'customer_list',
  name: 'Customers',
  children: [
    {
      key: 'customer_details',
      name: 'Customer details',
      children: [
        {
          key: 'customer_overview',
          name: 'Overview',
          children: [
            { key: 'customer_free_build_up_detail', name: 'Free build-up detail' },
            { key: 'customer_km_access', name: 'Manager access' },
            { key: 'customer_manage_km_access', name: 'Manage manager access rights' },
            { key: 'customer_preview_release', name: 'Preview release' },
          ],
        },
        {
          key: 'customer_overdue_limit',
          name: 'Overdue limit',
          children: [{ key: 'customer_change_overdue', name: 'Change overdue limit' }],
        },
        {
          key: 'customer_rates',
          name: 'Service rates',
          children: [
            { key: 'customer_current_rates', name: 'Current rates' },
            { key: 'customer_rate_history', name: 'Rate history' },
            { key: 'customer_change_rates', name: 'Change service rates' },
          ],
        },
        {
          key: 'customer_cost_analysis',
          name: 'Cost analysis',
          children: [
            { key: 'customer_cost_current_month', name: 'Current month' },
            { key: 'customer_cost_last_months', name: 'Last 12 months' },
          ],
        },
        {
          key: 'customer_transaction_history',
          name: 'Transaction history',
          children: [
            { key: 'customer_transaction_table', name: 'Transactions' },
            { key: 'customer_transactions_receipts', name: 'Download receipts' },
          ],
        },
        {
          key: 'customer_subscription',
          name: 'Subscriptions',
          children: [
            { key: 'customer_subscription_table', name: 'Subscriptions table' },
            { key: 'customer_subscription_view_details', name: 'View details' },
            { key: 'customer_subscription_balance', name: 'Balance' },
            { key: 'customer_subscription_add_funds', name: 'Add funds' },
          ],
        },
        {
          key: 'customer_cluster',
          name: 'Clusters',
          children: [
            { key: 'customer_cluster_table', name: 'Clusters table' },
            { key: 'customer_cluster_view_details', name: 'View details' },
            { key: 'customer_cluster_download_template', name: 'Download deployment template' },
            { key: 'customer_open_km', name: 'Open manager' },
            { key: 'customer_delete_cluster', name: 'Delete cluster' },
          ],
        },
        { key: 'customer_added_users', name: 'Added users' },
        { key: 'customer_switch_user', name: 'View as customer' },
      ],
    },
  ],
};

function collectKeys(node: PermissionNode): string[] {
  return [node.key, ...(node.children ?? []).flatMap(collectKeys)];
}
export const PERMISSION_KEYS = collectKeys(PERMISSION_TREE);
export type PermissionKey = string;

const MONEY_ACTIONS = ['customer_change_rates', 'customer_subscription_add_funds', 'customer_change_overdue'];
/** Viewing the customer's own console is for answering the customer: Support and the admins. */
const VIEW_AS_CUSTOMER = 'customer_switch_user';
const CLUSTER_ACTIONS = [
  'customer_delete_cluster',
  'customer_open_km',
  'customer_cluster_download_template',
  'customer_manage_km_access',
  'customer_preview_release',
];

/**
 * What each staff role may do (docs/permissions.md shows the same as a table). Keys not named
 * take the default state; the tree then caps each child at its parent's state.
 */
export const ROLE_GRANTS: Record<SystemRole, { default: PermissionState; overrides: Record<string, PermissionState> }> = {
  SYSTEM_ADMIN: { default: 'ENABLED', overrides: {} },
  SYSTEM_BILLING: {
    default: 'ENABLED',
    overrides: {
      ...Object.fromEntries(CLUSTER_ACTIONS.map((key) => [key, 'DISABLED' as const])),
      customer_open_km: 'HIDDEN',
      customer_delete_cluster: 'HIDDEN',
      [VIEW_AS_CUSTOMER]: 'DISABLED',
    },
  },
  SYSTEM_DEVOPS: {
    default: 'ENABLED',
    overrides: { ...Object.fromEntries(MONEY_ACTIONS.map((key) => [key, 'DISABLED' as const])), [VIEW_AS_CUSTOMER]: 'DISABLED' },
  },
  SYSTEM_SUPPORT: {
    default: 'ENABLED',
    overrides: {
      ...Object.fromEntries([...MONEY_ACTIONS, ...CLUSTER_ACTIONS].map((key) => [key, 'DISABLED' as const])),
      customer_open_km: 'HIDDEN',
    },
  },
};

const RANK: Record<PermissionState, number> = { HIDDEN: 0, DISABLED: 1, ENABLED: 2 };
const lower = (a: PermissionState, b: PermissionState) => (RANK[a] <= RANK[b] ? a : b);

/** The role's tree flattened into feature key → state. */
export function permissionsFor(role: SystemRole): Record<string, PermissionState> {
  const grant = ROLE_GRANTS[role];
  const result: Record<string, PermissionState> = {};
  const walk = (node: PermissionNode, parent: PermissionState) => {
    const state = lower(parent, grant.overrides[node.key] ?? grant.default);
    result[node.key] = state;
    for (const child of node.children ?? []) walk(child, state);
  };
  walk(PERMISSION_TREE, 'ENABLED');
  return result;
}

/** A key absent from the map is HIDDEN (spec section 6). */
export function permissionState(map: Record<string, PermissionState> | undefined, key: string): PermissionState {
  return map?.[key] ?? 'HIDDEN';
}

export const permissionMapSchema = z.record(z.string(), z.enum(PERMISSION_STATES)).meta({ id: 'PermissionMap' });

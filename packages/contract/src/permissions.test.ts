import { describe, expect, it } from 'vitest';
import { PERMISSION_KEYS, permissionState, permissionsFor } from './permissions.js';
import { SYSTEM_ROLES } from './roles.js';

describe('staff permissions', () => {
  it('cover every feature key of the specification', () => {
    for (const key of [
      'customer_transaction_table',
      'customer_delete_cluster',
      'customer_change_overdue',
      'customer_added_users',
      'customer_preview_release',
    ]) {
      expect(PERMISSION_KEYS).toContain(key);
    }
    for (const role of SYSTEM_ROLES) expect(Object.keys(permissionsFor(role)).sort()).toEqual([...PERMISSION_KEYS].sort());
  });

  it('gives the admin everything and the others less', () => {
    expect(new Set(Object.values(permissionsFor('SYSTEM_ADMIN')))).toEqual(new Set(['ENABLED']));
    expect(permissionsFor('SYSTEM_SUPPORT')).toMatchObject({
      customer_change_rates: 'DISABLED',
      customer_delete_cluster: 'DISABLED',
      customer_open_km: 'HIDDEN',
      customer_transaction_table: 'ENABLED',
      customer_switch_user: 'ENABLED',
    });
    expect(permissionsFor('SYSTEM_BILLING')).toMatchObject({
      customer_subscription_add_funds: 'ENABLED',
      customer_delete_cluster: 'HIDDEN',
      customer_switch_user: 'DISABLED',
    });
    expect(permissionsFor('SYSTEM_DEVOPS')).toMatchObject({
      customer_delete_cluster: 'ENABLED',
      customer_change_overdue: 'DISABLED',
      customer_switch_user: 'DISABLED',
    });
  });

  it('treats an absent key as HIDDEN', () => {
    expect(permissionState({}, 'customer_list')).toBe('HIDDEN');
    expect(permissionState(undefined, 'customer_list')).toBe('HIDDEN');
    expect(permissionState({ customer_list: 'DISABLED' }, 'customer_list')).toBe('DISABLED');
  });
});

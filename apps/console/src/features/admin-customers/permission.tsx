import type { ReactNode } from 'react';
import { Box } from '@mantine/core';
import { permissionState, type PermissionKey, type PermissionState } from '@kumo/contract';
import { useSession } from '../../lib/session';

export interface PermissionAccess {
  state: PermissionState;
  /** Shown at all: ENABLED or DISABLED. */
  visible: boolean;
  /** Shown but inactive. */
  disabled: boolean;
}

/**
 * The signed-in staff member's state for one admin feature, from the permissions map of the user
 * detail; a key the map does not name is HIDDEN (spec section 6).
 */
export function usePermission(key: PermissionKey): PermissionAccess {
  const { user } = useSession();
  const state = permissionState(user?.permissions, key);
  return { state, visible: state !== 'HIDDEN', disabled: state === 'DISABLED' };
}

interface PermissionProps {
  /** The feature key, e.g. customer_change_overdue. */
  name: PermissionKey;
  /**
   * What to show when the feature is not hidden. A function receives `disabled` and can pass it to its
   * controls; plain content is made inert and dimmed when the feature is disabled.
   */
  children: ReactNode | ((access: PermissionAccess) => ReactNode);
  /** Shown instead when the feature is hidden. */
  fallback?: ReactNode;
}

/** Shows, disables or leaves out one admin feature according to the staff member's permissions. */
export function Permission({ name, children, fallback = null }: PermissionProps) {
  const access = usePermission(name);
  if (!access.visible) return <>{fallback}</>;
  if (typeof children === 'function') return <>{children(access)}</>;
  if (!access.disabled) return <>{children}</>;
  return (
    <Box inert aria-disabled="true" data-permission-disabled={name} style={{ opacity: 0.55, cursor: 'not-allowed' }}>
      {children}
    </Box>
  );
}

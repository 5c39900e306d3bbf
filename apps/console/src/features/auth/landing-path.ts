import { canUseCustomerArea, isSystemRole } from '@kumo/contract';

/**
 * Where a signed-in user belongs: staff to the admin customers page, account owners and admins to
 * home (or the customer page they were sent away from), anyone else to the unauthorized page.
 */
export function landingPath(role: string, from?: string): string {
  if (isSystemRole(role)) return '/admin/customers';
  if (canUseCustomerArea(role)) return from && isCustomerPath(from) ? from : '/';
  return '/unauthorized-access';
}

function isCustomerPath(path: string): boolean {
  return path.startsWith('/') && !/^\/(admin|login|signup|oauth2)(\/|$)/.test(path);
}

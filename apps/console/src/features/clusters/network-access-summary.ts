import { normalizeIpRange, type NetworkAccessRequest } from '@kumo/contract';

/** The list in one line: "Anywhere", or its ranges as they will be kept. */
export function networkAccessSummary(access: NetworkAccessRequest): string {
  if (access.allow_anywhere) return 'Anywhere';
  return access.allowed.map((entry) => normalizeIpRange(entry.cidr) ?? entry.cidr).join(', ');
}

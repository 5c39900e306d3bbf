import { z } from 'zod';
import { normalizeIpRange } from './ip-ranges.js';
import { plainText } from './validation.js';

/**
 * Network access per cluster: the addresses its SQL endpoint, Kumo Manager and Web Portal answer. Anywhere, or only
 * the ranges listed; on AWS the cluster's security group follows the list.
 */
export const NETWORK_ACCESS_LIMITS = { maxEntries: 50, descriptionMaxLength: 100 } as const;

export const NETWORK_ACCESS_MESSAGES = {
  cidrRequired: 'Enter an address or a range.',
  cidrInvalid: 'Enter an IPv4 or IPv6 address or a range in CIDR notation, e.g. 203.0.113.7 or 2001:db8::/48.',
  cidrDuplicate: 'This range is already in the list.',
  descriptionTooLong: `A description has at most ${NETWORK_ACCESS_LIMITS.descriptionMaxLength} characters.`,
  tooMany: `At most ${NETWORK_ACCESS_LIMITS.maxEntries} addresses or ranges per cluster.`,
  listEmpty: 'Add at least one address or range, or allow access from anywhere.',
  allowAnywhereRequired: 'Say whether the cluster may be reached from anywhere.',
  denied: "This cluster does not accept connections from your address. Add it to the cluster's network access list.",
  anywhereWarning:
    'Anyone on the internet can reach the cluster. Scanners knock on open addresses all day, and every knock keeps an idle cluster awake and billed.',
  saved: 'Network access saved.',
} as const;

/** How the create form chooses, in the console's words. */
export const NETWORK_ACCESS_CHOICES = ['ANYWHERE', 'THIS_ADDRESS', 'LIST'] as const;
export type NetworkAccessChoice = (typeof NETWORK_ACCESS_CHOICES)[number];

export const networkAccessEntrySchema = z.object({
  cidr: z
    .string({ error: NETWORK_ACCESS_MESSAGES.cidrRequired })
    .trim()
    .min(1, NETWORK_ACCESS_MESSAGES.cidrRequired)
    .refine((text) => normalizeIpRange(text) !== null, NETWORK_ACCESS_MESSAGES.cidrInvalid)
    .transform((text) => normalizeIpRange(text)!)
    .meta({ description: 'An IPv4 or IPv6 address or CIDR range; answered in canonical form (a bare address as /32 or /128).' }),
  description: plainText(z.string({ error: NETWORK_ACCESS_MESSAGES.descriptionTooLong }).trim())
    .max(NETWORK_ACCESS_LIMITS.descriptionMaxLength, NETWORK_ACCESS_MESSAGES.descriptionTooLong)
    .optional()
    .default(''),
});
export type NetworkAccessEntryInput = z.input<typeof networkAccessEntrySchema>;

/** The list as a request gives it (PUT, and a new cluster's `network_access`). */
export const networkAccessSchema = z
  .object({
    allow_anywhere: z.boolean({ error: NETWORK_ACCESS_MESSAGES.allowAnywhereRequired }),
    allowed: z
      .array(networkAccessEntrySchema)
      .max(NETWORK_ACCESS_LIMITS.maxEntries, NETWORK_ACCESS_MESSAGES.tooMany)
      .meta({ description: 'Kept while allow_anywhere is true, and enforced only when it is false.' }),
  })
  .superRefine((value, ctx) => {
    if (!value.allow_anywhere && value.allowed.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['allowed'], message: NETWORK_ACCESS_MESSAGES.listEmpty });
    }
    const seen = new Set<string>();
    value.allowed.forEach((entry, index) => {
      if (seen.has(entry.cidr)) {
        ctx.addIssue({ code: 'custom', path: ['allowed', index, 'cidr'], message: NETWORK_ACCESS_MESSAGES.cidrDuplicate });
      }
      seen.add(entry.cidr);
    });
  })
  .meta({ id: 'NetworkAccessRequest' });
export type NetworkAccessRequest = z.input<typeof networkAccessSchema>;
export type NetworkAccess = z.output<typeof networkAccessSchema>;

export const networkAccessResponseSchema = z
  .object({
    deployment_id: z.uuid(),
    allow_anywhere: z.boolean(),
    allowed: z.array(z.object({ cidr: z.string(), description: z.string() })),
    updated_at: z.iso.datetime().nullable(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'NetworkAccessResponse' });
export type NetworkAccessResponse = z.output<typeof networkAccessResponseSchema>;

export const clientAddressResponseSchema = z
  .object({ client_address: z.string().meta({ description: 'The caller\'s address as the portal sees it ("This address only").' }) })
  .meta({ id: 'ClientAddressResponse' });
export type ClientAddressResponse = z.output<typeof clientAddressResponseSchema>;

/** The list in a few words, as the audit log says it: "anywhere", "1 range", "3 ranges". */
export function describeNetworkAccess(access: { allow_anywhere: boolean; allowed: readonly unknown[] }): string {
  if (access.allow_anywhere) return 'anywhere';
  return access.allowed.length === 1 ? '1 range' : `${access.allowed.length} ranges`;
}

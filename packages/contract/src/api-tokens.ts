import { z } from 'zod';
import { plainText } from './validation.js';

/**
 * Personal API tokens: a script's way into the customer API. A token acts as the owner or admin who made it, in the
 * account they made it in, never wider; READ tokens only read.
 */
export const API_TOKEN_SCOPES = ['READ', 'WRITE'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** The lifetimes a token may be given, in days; null is a token that never expires. */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;

export const API_TOKEN_LIMITS = {
  /** Every secret starts with this, so secret scanners and people recognise it. */
  secretPrefix: 'kumo_pat_',
  /** Random bytes behind each secret (base62-encoded after the prefix). */
  secretBytes: 32,
  /** How much of the secret is kept to tell tokens apart in lists: the prefix and the first characters. */
  displayChars: 13,
  nameMaxLength: 64,
  maxAllowedIps: 20,
  /** Live tokens one person may hold in one account. */
  maxPerPerson: 25,
  /** Calls one token may make per minute. */
  callsPerMinute: 120,
} as const;

export const API_TOKEN_MESSAGES = {
  nameRequired: 'Give the token a name.',
  nameTooLong: `A token's name has at most ${API_TOKEN_LIMITS.nameMaxLength} characters.`,
  scopeInvalid: 'Choose READ or WRITE.',
  expiryInvalid: `Choose an expiry of ${API_TOKEN_EXPIRY_DAYS.join(', ')} days, or none.`,
  cidrInvalid: 'Each allowed address must be an IPv4 or IPv6 address or range in CIDR notation, e.g. 203.0.113.0/24 or 2001:db8::/32.',
  tooManyIps: `At most ${API_TOKEN_LIMITS.maxAllowedIps} allowed addresses per token.`,
  tooManyTokens: `You hold ${API_TOKEN_LIMITS.maxPerPerson} tokens in this account already; revoke one first.`,
  revoked: 'API token revoked.',
  tokenInvalid: 'This API token is not valid: it is unknown, revoked, or its creator no longer manages this account.',
  tokenExpired: 'This API token has expired. Create a new one under Users → API tokens.',
  scopeRefused: 'This API token may only read. Use a token with WRITE scope for this call.',
  ipRefused: "This API token may not be used from this address. Add it to the token's allowed addresses.",
  personOnly: 'An API token cannot do this: sign in to the console.',
  /** 403 TOKEN_NOT_ALLOWED: a token may turn automatic top-up off or lower it, never let the card be charged more. */
  topUpRaised:
    'An API token may turn automatic top-up off or lower its amounts; turning it on or raising them needs a person signed in to the console.',
} as const;

const OCTET = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

function isIpv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((part) => OCTET.test(part));
}

/** IPv6 in any of its written forms: full, compressed with `::`, or ending with an IPv4 address. */
function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string) => (half === '' ? [] : half.split(':'));
  const groups = halves.flatMap(groupsOf);
  const last = groups.at(-1);
  const endsWithIpv4 = !!last && last.includes('.');
  if (endsWithIpv4 && !isIpv4(last)) return false;
  const hexGroups = endsWithIpv4 ? groups.slice(0, -1) : groups;
  if (!hexGroups.every((group) => HEX_GROUP.test(group))) return false;
  const width = hexGroups.length + (endsWithIpv4 ? 2 : 0);
  return halves.length === 2 ? width <= 7 : width === 8;
}

/** An address or a CIDR range, IPv4 or IPv6; the family it belongs to, or null when it is neither. */
export function ipRangeFamily(range: string): 'ipv4' | 'ipv6' | null {
  const [address = '', prefix, extra] = range.split('/');
  if (extra !== undefined) return null;
  const family = isIpv4(address) ? 'ipv4' : isIpv6(address) ? 'ipv6' : null;
  if (!family || prefix === undefined) return family;
  if (!/^\d{1,3}$/.test(prefix)) return null;
  return Number(prefix) <= (family === 'ipv4' ? 32 : 128) ? family : null;
}

const allowedIpSchema = z
  .string()
  .trim()
  .refine((range) => ipRangeFamily(range) !== null, API_TOKEN_MESSAGES.cidrInvalid);

export const createApiTokenRequestSchema = z
  .object({
    name: plainText(z.string({ error: API_TOKEN_MESSAGES.nameRequired }).trim())
      .min(1, API_TOKEN_MESSAGES.nameRequired)
      .max(API_TOKEN_LIMITS.nameMaxLength, API_TOKEN_MESSAGES.nameTooLong),
    scope: z.enum(API_TOKEN_SCOPES, { error: API_TOKEN_MESSAGES.scopeInvalid }),
    expires_in_days: z
      .union([z.literal(API_TOKEN_EXPIRY_DAYS), z.null()], { error: API_TOKEN_MESSAGES.expiryInvalid })
      .meta({ description: 'Days until the token stops working, or null for never.' }),
    allowed_ips: z
      .array(allowedIpSchema)
      .max(API_TOKEN_LIMITS.maxAllowedIps, API_TOKEN_MESSAGES.tooManyIps)
      .default([])
      .meta({ description: 'Addresses or CIDR ranges (IPv4 or IPv6) the token may be used from; empty allows any.' }),
  })
  .meta({ id: 'CreateApiTokenRequest' });
export type CreateApiTokenRequest = z.input<typeof createApiTokenRequestSchema>;
export type CreateApiTokenValues = z.output<typeof createApiTokenRequestSchema>;

const apiTokenFields = {
  token_id: z.uuid(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  /** The first characters of the secret, to tell tokens apart; never enough to use it. */
  prefix: z.string(),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime().nullable(),
  allowed_ips: z.array(z.string()),
};

/** The answer to a creation: the only time the secret is shown. */
export const createdApiTokenSchema = z
  .object({ ...apiTokenFields, token: z.string().meta({ description: 'The secret, shown this once only.' }) })
  .meta({ id: 'CreatedApiToken' });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

export const apiTokenSchema = z
  .object({ ...apiTokenFields, last_used_at: z.iso.datetime().nullable(), last_used_ip: z.string().nullable() })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.array(apiTokenSchema).meta({ id: 'ApiTokens' });

export const apiTokenParamsSchema = z.object({ tokenId: z.uuid() });

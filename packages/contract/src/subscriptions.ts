import { z } from 'zod';
import { errorResponseSchema } from './error-schema.js';
import { MESSAGES } from './messages.js';
import { formatUsdCents } from './money.js';
import { moneySchema } from './money-schemas.js';
import { plainText } from './validation.js';

export const SUBSCRIPTION_LIMITS = {
  nameMaxLength: 50,
  remarkMaxLength: 200,
} as const;

export const SUBSCRIPTION_TYPES = ['PREPAID'] as const;
export type SubscriptionType = (typeof SUBSCRIPTION_TYPES)[number];
export const SUBSCRIPTION_TYPE_LABELS: Record<SubscriptionType, string> = { PREPAID: 'Prepaid' };

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'DELETED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = { ACTIVE: 'Active', DELETED: 'Deleted' };

// Three letters, then up to 47 letters, digits, dashes, underscores or spaces (spec section 5).
const SUBSCRIPTION_NAME_PATTERN = /^[A-Za-z]{3}[A-Za-z0-9 _-]{0,47}$/;

export const subscriptionNameSchema = z
  .string({ error: MESSAGES.subscriptionNameRequired })
  .trim()
  .min(1, MESSAGES.subscriptionNameRequired)
  .regex(SUBSCRIPTION_NAME_PATTERN, MESSAGES.subscriptionNameFormat);

/** Remarks on subscriptions and purchases: free text up to 200 characters. */
export const remarkSchema = plainText(
  z.string({ error: MESSAGES.remarkTooLong }).trim().max(SUBSCRIPTION_LIMITS.remarkMaxLength, MESSAGES.remarkTooLong),
  { multiline: true },
);

/** What the name field keeps of a keystroke: no leading spaces, at most 50 characters. */
export function normalizeSubscriptionNameInput(raw: string): string {
  return raw.replace(/^\s+/, '').slice(0, SUBSCRIPTION_LIMITS.nameMaxLength);
}

/** The counter under a remarks field. */
export function remainingCharacters(text: string, max: number = SUBSCRIPTION_LIMITS.remarkMaxLength): string {
  const left = Math.max(0, max - text.length);
  return `${left} character${left === 1 ? '' : 's'} remaining`;
}

export const createSubscriptionRequestSchema = z
  .object({
    subscription_name: subscriptionNameSchema,
    remark: remarkSchema.optional().default(''),
    subscription_type: z.enum(SUBSCRIPTION_TYPES).optional().default('PREPAID'),
  })
  .meta({ id: 'CreateSubscriptionRequest' });
export type CreateSubscriptionRequest = z.input<typeof createSubscriptionRequestSchema>;

export const createSubscriptionResponseSchema = z
  .object({ subscription_id: z.uuid(), message: z.string() })
  .meta({ id: 'CreateSubscriptionResponse' });
export type CreateSubscriptionResponse = z.infer<typeof createSubscriptionResponseSchema>;

export const subscriptionSchema = z
  .object({
    subscription_id: z.uuid(),
    subscription_name: z.string(),
    subscription_type: z.enum(SUBSCRIPTION_TYPES),
    remark: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    /** The balance: paid funds plus unexpired free credits minus usage. */
    total_amount: moneySchema,
    balance: moneySchema,
    /** Unexpired free credits still to spend (part of the balance). */
    credits: moneySchema,
    /** When the next free credits expire, if any are left. */
    credits_expire_at: z.iso.datetime().nullable(),
    consumed_amount: moneySchema,
    forecasted_amount: moneySchema,
    active_cluster_count: z.number().int(),
    /** The subscription's clusters that are not deleted, oldest first. */
    clusters: z.array(z.object({ deployment_id: z.uuid(), cluster_name: z.string(), status: z.string() })),
    created_by: z.string(),
    subscribed_by_email_id: z.string(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionListSchema = z.array(subscriptionSchema).meta({ id: 'SubscriptionList' });

export const subscriptionIdParamsSchema = z.object({ id: z.uuid({ error: MESSAGES.subscriptionNotFound }) });
/** Where a deleted subscription's paid funds go: another active subscription of the same account. */
export const deleteSubscriptionQuerySchema = z.object({
  transfer_to: z.uuid({ error: MESSAGES.transferTargetInvalid }).optional(),
});

export const deleteSubscriptionResponseSchema = z
  .object({
    message: z.string(),
    /** Paid funds moved to the transfer target (0 when there were none). */
    transferred_amount: moneySchema,
  })
  .meta({ id: 'DeleteSubscriptionResponse' });
export type DeleteSubscriptionResponse = z.infer<typeof deleteSubscriptionResponseSchema>;

/** A cluster that keeps its subscription from being deleted: the console links to it. */
export const blockingClusterSchema = z.object({ deployment_id: z.uuid(), cluster_name: z.string() });
export type BlockingCluster = z.infer<typeof blockingClusterSchema>;

/**
 * A refused deletion: the contract's error shape, and with SUBSCRIPTION_HAS_CLUSTERS the clusters that are not
 * deleted yet, so the console can list them as links.
 */
export const deleteSubscriptionErrorSchema = errorResponseSchema
  .extend({ clusters: z.array(blockingClusterSchema).optional() })
  .meta({ id: 'DeleteSubscriptionError' });
export type DeleteSubscriptionError = z.infer<typeof deleteSubscriptionErrorSchema>;

/** Why a subscription with clusters cannot be deleted, naming them (the generic text when their names are unknown). */
export const subscriptionHasClustersMessage = (clusterNames: readonly string[]) =>
  clusterNames.length === 0
    ? MESSAGES.subscriptionHasClusters
    : `This subscription still has ${clusterNames.length === 1 ? 'a cluster' : `${clusterNames.length} clusters`}: ${clusterNames.join(', ')}. Delete ${clusterNames.length === 1 ? 'it' : 'them'} before deleting the subscription.`;

/** Why a subscription with paid funds cannot simply be deleted, with the amount at stake. */
export const subscriptionHasFundsMessage = (paidCents: number) =>
  `This subscription still holds ${formatUsdCents(paidCents)} of paid funds. Move them to another subscription of this account to delete it; funds are never discarded.`;

/** What the delete dialog says about free credits: they stay with the subscription and end with it. */
export const FREE_CREDITS_FORFEITED =
  'Free credits cannot be moved to another subscription: any left on this one are forfeited when it is deleted.';

export const subscriptionDetailsQuerySchema = z.object({ subscription_id: z.uuid({ error: MESSAGES.subscriptionNotFound }) });

import { z } from 'zod';
import { auditLogQuerySchema } from './clusters.js';
import { CUSTOMER_ROLES } from './roles.js';
import { MESSAGES } from './messages.js';
import { emailSchema, nameSchema, plainText } from './validation.js';

/** Roles an account owner or admin can give to a person they add (spec section 5 "Add user"). */
export const INVITABLE_ROLES = ['ACCOUNT_ADMIN', 'CLUSTER_MEMBER'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

export const accountUserSchema = z
  .object({
    user_id: z.uuid(),
    user_name: z.string(),
    email_id: z.string(),
    role: z.enum(CUSTOMER_ROLES),
    /** Names of the subscriptions a Cluster Member may use; empty for admins, who use them all. */
    subscription: z.array(z.string()),
    added_on: z.iso.datetime(),
  })
  .meta({ id: 'AccountUser' });
export type AccountUser = z.infer<typeof accountUserSchema>;

export const accountUsersResponseSchema = z.array(accountUserSchema).meta({ id: 'AccountUsers' });

export const inviteRequestSchema = z
  .object({
    invited_user_id: emailSchema,
    invited_user_name: nameSchema,
    role: z.enum(INVITABLE_ROLES).default('ACCOUNT_ADMIN'),
    subscription_ids: z.array(z.uuid()).max(100).default([]),
  })
  .refine((body) => body.role !== 'CLUSTER_MEMBER' || body.subscription_ids.length > 0, {
    message: MESSAGES.selectSubscription,
    path: ['subscription_ids'],
  })
  .meta({ id: 'InviteRequest' });
export type InviteRequest = z.input<typeof inviteRequestSchema>;

export const inviteResponseSchema = z.object({ invitation_id: z.uuid() }).meta({ id: 'InviteResponse' });
export type InviteResponse = z.infer<typeof inviteResponseSchema>;

export const subscriptionOptionSchema = z.object({ subscription_id: z.uuid(), subscription_name: z.string() });
export type SubscriptionOption = z.infer<typeof subscriptionOptionSchema>;
export const subscriptionOptionsResponseSchema = z.array(subscriptionOptionSchema).meta({ id: 'SubscriptionOptions' });

export const acceptInviteRequestSchema = z
  .object({ token: plainText(z.string().trim().min(1).max(200)) })
  .meta({ id: 'AcceptInviteRequest' });

export const deleteUserRequestSchema = z.object({ email_id: emailSchema }).meta({ id: 'DeleteUserRequest' });
export type DeleteUserRequest = z.input<typeof deleteUserRequestSchema>;

export const checkUserQuerySchema = z.object({ email_id: emailSchema });
/** The full name of a registered person, in `data` (spec section 7). */
export const checkUserResponseSchema = z.object({ data: z.string() }).meta({ id: 'CheckUserResponse' });
export type CheckUserResponse = z.infer<typeof checkUserResponseSchema>;

/** A success message in `data` (spec: account switching "data.data is a success message"). */
export const dataMessageResponseSchema = z.object({ data: z.string() }).meta({ id: 'DataMessage' });

export const helpLinksResponseSchema = z
  .object({
    BASE_URL: z.string(),
    links: z.record(z.string(), z.string()),
  })
  .meta({ id: 'HelpLinks' });
export type HelpLinks = z.infer<typeof helpLinksResponseSchema>;

/** An invitation nobody has accepted or revoked yet; `expired` ones can be resent for a fresh link. */
export const pendingInvitationSchema = z
  .object({
    invitation_id: z.uuid(),
    email_id: z.string(),
    user_name: z.string(),
    role: z.enum(INVITABLE_ROLES),
    invited_on: z.iso.datetime(),
    expires_on: z.iso.datetime(),
    expired: z.boolean(),
  })
  .meta({ id: 'PendingInvitation' });
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;

export const pendingInvitationsResponseSchema = z.array(pendingInvitationSchema).meta({ id: 'PendingInvitations' });

export const invitationParamsSchema = z.object({ invitationId: z.uuid() });

// ---------------------------------------------------------------------------------------------
// Account activity (beyond the spec): when Kumo Cloud staff viewed the account's console (decision 0015) and
// what they did to it from the admin area (decision 0018)
// ---------------------------------------------------------------------------------------------

export const ACCOUNT_AUDIT_EVENTS = [
  'USER_SWITCH_STARTED',
  'USER_SWITCH_ENDED',
  'KM_ACCESS_CHANGED',
  'PREVIEW_RELEASE_CHANGED',
  'MANAGER_OPENED',
  'CLUSTER_TEMPLATE_DOWNLOADED',
  'FUNDS_ADDED',
  'OVERDUE_LIMIT_CHANGED',
  'SERVICE_RATES_CHANGED',
  'CLUSTER_DELETION_APPROVED',
] as const;
export type AccountAuditEvent = (typeof ACCOUNT_AUDIT_EVENTS)[number];

/** The same query as a cluster's audit log: startDate (the first of a UTC month; this month when left out), page, size. */
export const accountAuditQuerySchema = auditLogQuerySchema;

export const accountAuditEntrySchema = z
  .object({
    audit_id: z.uuid(),
    date: z.iso.datetime(),
    event: z.enum(ACCOUNT_AUDIT_EVENTS),
    description: z.string(),
    /** The staff member: name and e-mail. */
    caused_by: z.string(),
  })
  .meta({ id: 'AccountAuditEntry' });
export type AccountAuditEntry = z.infer<typeof accountAuditEntrySchema>;

export const accountAuditResponseSchema = z
  .object({
    page_content: z.object({ content: z.array(accountAuditEntrySchema), totalPages: z.number().int() }),
    start_date: z.iso.datetime(),
    end_date: z.iso.datetime(),
  })
  .meta({ id: 'AccountAuditPage' });
export type AccountAuditResponse = z.infer<typeof accountAuditResponseSchema>;

import { z } from 'zod';
import { transactionPageSchema } from './billing.js';
import { clusterDetailsResponseSchema, clusterSchema } from './clusters.js';
import { PAGE_SIZES } from './constants.js';
import { MESSAGES } from './messages.js';
import { FREE_UNIT_DIMENSIONS, METERING_DIMENSIONS, monthlyConsumptionSchema, rateCardSchema } from './metering.js';
import { moneySchema } from './money-schemas.js';
import { pageQuerySchema } from './paging.js';
import { CUSTOMER_ROLES } from './roles.js';
import { subscriptionSchema } from './subscriptions.js';

export { pageQuerySchema } from './paging.js';

// ---------------------------------------------------------------------------------------------
// Messages and limits of the admin area (spec sections 4, 5 and 8)
// ---------------------------------------------------------------------------------------------

export const ADMIN_LIMITS = {
  /** Overdue limit in dollars: 0 to 999,999 with at most 2 decimals (spec section 5). */
  overdueLimitMaxDollars: 999_999,
  overdueLimitMaxDecimals: 2,
  remarkMaxLength: 200,
  /** How far ahead a rate change may be dated. */
  rateEffectiveMaxDaysAhead: 366,
} as const;

export const ADMIN_MESSAGES = {
  customerNotFound: 'Customer not found.',
  noApprover: 'No approver is available for this action: another system administrator must exist or APPROVER_EMAILS must name one.',
  approverOtpSent: 'An OTP has been sent to approver please get the OTP and enter in input field.',
  otpResent: 'A new OTP has been sent to the approvers.',
  operationNotFound: 'Operation not found.',
  operationUsed: 'This operation has already been used.',
  operationExpired: 'The OTP has expired; ask for the action again.',
  operationTampered: 'The operation no longer matches what was asked for; ask for the action again.',
  operationNotYours: 'Only the staff member who asked for this action can complete it.',
  operationCancelled: 'This request was cancelled; ask for the action again.',
  requestCancelled: 'The request has been cancelled; no OTP for it will work.',
  fundsAdded: 'Funds have been added successfully.',
  overdueChanged: 'Overdue limit has been updated successfully.',
  ratesChanged: 'Service rates have been updated successfully.',
  clusterDeletionStarted: 'Cluster deletion has started.',
  overdueMaximum: 'Maximum limit for overdue is 999,999.',
  overdueInvalid: 'Enter an overdue limit from 0 to 999,999 with at most 2 decimals.',
  rateRequired: 'Rate is required.',
  rateInvalid: 'Rate must be greater than 0',
  rateFormat: 'Rates have at most 2 integer digits and 4 decimals.',
  freeUnitsRequired: 'Free units are required.',
  freeUnitsInvalid: 'Free units must be 0 or more.',
  freeUnitsFormat: 'Free units have at most 6 integer digits and 4 decimals.',
  effectiveDateInvalid: 'The effective date must be today or within the next year.',
  kmAccessRevert: 'Once a user is granted administrative access, it cannot be reverted to standard access',
  kmAccessClustersOffline: 'You cannot change access because all clusters are not online',
  kmAccessOneAdmin: 'At least one user must keep administrative privileges.',
  kmAccessUnchanged: 'Nothing to change.',
  kmAccessFailed: 'Unable to make the access changes, please try again later.',
  managerUnavailable: 'The manager is available only when the cluster is ONLINE and the customer allows provider access.',
  managerProviderAccessOff: "The customer does not allow the provider's staff into the manager (Manage KM Access Rights).",
  managerClusterNotOnline: 'The manager is available only while the cluster is online.',
  previewFailed: 'Unable to Set Preview Version',
  adminReceiptWarning: 'Admin-added transactions receipts cannot be downloaded.',
  // Empty states (spec section 8)
  noTransactions: "The user hasn't done any transactions yet.",
  noSubscriptions: "User don't have any Subscriptions",
  noClusters: "The user hasn't deployed any clusters yet.",
  noAddedUsers: 'No users under this customer have been found.',
  noRateChanges: 'No service rate change occured for this customer.',
  noClustersInSubscription: "User don't have any cluster deploy for this subscription.",
  noUsageCost: 'Usage cost for the current period is not available.',
  noCustomersListed: 'No customers have been listed yet.',
  customerDetailsUnavailable: 'Customer details are unavailable.',
  noApprovals: 'No operations are waiting for your approval.',
  // Viewing a customer's console (userSwitched)
  readOnlyView: "You are viewing the customer's console as Kumo Cloud staff: it is read-only, so nothing can be changed.",
  notUserSwitched: "This session is not viewing a customer's console.",
  userSwitched: "You are now viewing the customer's console, read-only.",
  userSwitchEnded: "You have stopped viewing the customer's console.",
} as const;

// ---------------------------------------------------------------------------------------------
// Customers list and detail
// ---------------------------------------------------------------------------------------------

export const customerListItemSchema = z
  .object({ user_id: z.uuid(), user_name: z.string(), email_id: z.string() })
  .meta({ id: 'CustomerListItem' });
export type CustomerListItem = z.infer<typeof customerListItemSchema>;

export const customerPageSchema = z
  .object({ content: z.array(customerListItemSchema), totalPages: z.number().int() })
  .meta({ id: 'CustomerPage' });
export type CustomerPage = z.infer<typeof customerPageSchema>;

/** GET /api/admin/users: 50 a page (spec section 9); search matches part of the e-mail or the name, any case. */
export const customerListQuerySchema = pageQuerySchema(PAGE_SIZES.customers).extend({
  search: z.string().trim().max(254).optional(),
});

/** Path and query parameters: the customer's user id, a transaction id. */
export const adminUserIdParamsSchema = z.object({ userId: z.uuid({ error: ADMIN_MESSAGES.customerNotFound }) });
export const adminUserIdQuerySchema = z.object({ userId: z.uuid({ error: ADMIN_MESSAGES.customerNotFound }) });
export const adminTransactionIdParamsSchema = z.object({ transactionId: z.uuid({ error: MESSAGES.transactionNotFound }) });
export const adminListQuerySchema = pageQuerySchema(PAGE_SIZES.adminLists);
const adminCustomerListQuerySchema = adminListQuerySchema.extend({
  userId: z.uuid({ error: ADMIN_MESSAGES.customerNotFound }),
});
/** GET /api/admin/cluster/view: the customer's clusters, or those of one of their subscriptions. */
export const adminClusterViewQuerySchema = adminCustomerListQuerySchema.extend({
  subscriptionId: z.uuid({ error: MESSAGES.subscriptionNotFound }).optional(),
});
/** Calls on one subscription, transaction or cluster of a customer name the customer too (?userId), which scopes them. */
export const adminTransactionsQuerySchema = adminCustomerListQuerySchema;
export const adminSubscriptionIdParamsSchema = z.object({ id: z.uuid({ error: MESSAGES.subscriptionNotFound }) });
export const adminDeploymentIdParamsSchema = z.object({ deploymentId: z.uuid({ error: ADMIN_MESSAGES.customerNotFound }) });

/** Manager (KM) user roles: Integration is standard access, Administrator the administrative one (spec section 3). */
export const KM_USER_ROLES = ['Integration', 'Administrator'] as const;
export type KmUserRole = (typeof KM_USER_ROLES)[number];
export const KM_USER_ROLE_LABELS: Record<KmUserRole, string> = { Integration: 'Standard', Administrator: 'Administrative' };

/** GET /api/admin/users/{userId}: header, overview and added users in one call. */
export const customerDetailSchema = z
  .object({
    user_id: z.uuid(),
    account_id: z.uuid(),
    user_name: z.string(),
    email_id: z.string(),
    created_at: z.iso.datetime(),
    /** Sum of the balances of the customer's active subscriptions (paid and free). */
    total_subscription_balance: moneySchema,
    /** The overdue limit, in dollars. */
    outstanding_limit: moneySchema,
    /** Whether the customer lets the provider's staff into their manager tool. */
    admin_access: z.boolean(),
    km_user_role: z.enum(KM_USER_ROLES),
    overview: z.object({
      /** Free units a month on the customer's current rate card; null while the rate card cannot be read. */
      free_units: z.record(z.enum(FREE_UNIT_DIMENSIONS), z.number()).nullable(),
      kumo_ea_version_enabled: z.boolean(),
    }),
    added_users: z.array(
      z.object({
        user_id: z.uuid(),
        user_name: z.string(),
        email_id: z.string(),
        role: z.enum(CUSTOMER_ROLES),
        added_on: z.iso.datetime(),
      }),
    ),
  })
  .meta({ id: 'CustomerDetail' });
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** GET /api/admin/view-users/{userId}: the account's people, 20 a page. */
export const adminAccountUserSchema = z.object({
  user_id: z.uuid(),
  user_name: z.string(),
  email_id: z.string(),
  role: z.enum(CUSTOMER_ROLES),
  subscription: z.array(z.string()),
  added_on: z.iso.datetime(),
});
export const adminAccountUsersPageSchema = z
  .object({ content: z.array(adminAccountUserSchema), totalPages: z.number().int() })
  .meta({ id: 'AdminAccountUsersPage' });
export type AdminAccountUsersPage = z.infer<typeof adminAccountUsersPageSchema>;

/** GET /api/admin/view-subscriptions/{userId}. */
export const adminSubscriptionsPageSchema = z
  .object({ content: z.array(subscriptionSchema), totalPages: z.number().int() })
  .meta({ id: 'AdminSubscriptionsPage' });
export type AdminSubscriptionsPage = z.infer<typeof adminSubscriptionsPageSchema>;

/** GET /api/admin/view/credit-transactions/{subscriptionId}: the same page the customer sees. */
export const adminTransactionPageSchema = transactionPageSchema;

/** GET /api/admin/cluster/view?userId&page&size: the customer's clusters, newest first. */
export const adminClusterPageSchema = z
  .object({ content: z.array(clusterSchema), totalPages: z.number().int() })
  .meta({ id: 'AdminClusterPage' });
export type AdminClusterPage = z.infer<typeof adminClusterPageSchema>;

/** GET /api/admin/node-details-view/{deploymentId}. */
export const adminNodeDetailsSchema = clusterDetailsResponseSchema;

// ---------------------------------------------------------------------------------------------
// Service rates and cost
// ---------------------------------------------------------------------------------------------

/** GET /api/admin/current-resource-rate/{userId}: the rate card in force now (same shape the customer gets). */
export const adminCurrentRatesSchema = rateCardSchema;

/** One period of GET /api/admin/service-rate-history/{userId}. */
export const rateHistoryItemSchema = z.object({
  /** "YYYY-MM-DD_YYYY-MM-DD", or "YYYY-MM-DD_" for the period still running. */
  start_end: z.string(),
  start_date: z.iso.datetime(),
  end_date: z.iso.datetime().nullable(),
  rates: z.array(z.object({ dimension: z.enum(METERING_DIMENSIONS), rate: z.number(), free_trial: z.number() })),
});
export const rateHistoryPageSchema = z
  .object({ content: z.array(rateHistoryItemSchema), totalPages: z.number().int() })
  .meta({ id: 'RateHistoryPage' });
export type RateHistoryPage = z.infer<typeof rateHistoryPageSchema>;

/** GET /api/admin/cost-analysis/{userId}: the current month per subscription, 20 a page. */
export const adminCostAnalysisSchema = z
  .object({
    start_date: z.iso.datetime(),
    end_date: z.iso.datetime(),
    consumed_amount: moneySchema,
    forecasted_amount: moneySchema,
    content: z.array(
      z.object({
        subscription_id: z.uuid(),
        subscription_name: z.string(),
        consumed_amount: moneySchema,
        forecasted_amount: moneySchema,
        balance: moneySchema,
      }),
    ),
    totalPages: z.number().int(),
  })
  .meta({ id: 'AdminCostAnalysis' });
export type AdminCostAnalysis = z.infer<typeof adminCostAnalysisSchema>;

/** GET /api/admin/view/cumulative-cost-consumption?userId: the last 12 months, oldest first. */
export const cumulativeCostSchema = z.array(monthlyConsumptionSchema).meta({ id: 'CumulativeCost' });
export type CumulativeCost = z.infer<typeof cumulativeCostSchema>;

// ---------------------------------------------------------------------------------------------
// Manager access, preview release, open manager
// ---------------------------------------------------------------------------------------------

/** GET /api/admin/check-km-access/{userId}: may the access be changed now (every cluster online)? */
export const kmAccessCheckSchema = z
  .object({
    km_access_allowed: z.boolean(),
    admin_access: z.boolean(),
    km_user_role: z.enum(KM_USER_ROLES),
    /** Why not, when not allowed. */
    message: z.string().nullable(),
  })
  .meta({ id: 'KmAccessCheck' });
export type KmAccessCheck = z.infer<typeof kmAccessCheckSchema>;

export const manageKmAccessRequestSchema = z
  .object({ admin_access: z.boolean(), km_user_role: z.enum(KM_USER_ROLES) })
  .meta({ id: 'ManageKmAccessRequest' });
export type ManageKmAccessRequest = z.infer<typeof manageKmAccessRequestSchema>;
export const manageKmAccessResponseSchema = z
  .object({ admin_access: z.boolean(), km_user_role: z.enum(KM_USER_ROLES), message: z.string() })
  .meta({ id: 'ManageKmAccessResponse' });
export type ManageKmAccessResponse = z.infer<typeof manageKmAccessResponseSchema>;

export const eaVersionActionQuerySchema = z.object({ action: z.enum(['ENABLE', 'DISABLE'], { error: ADMIN_MESSAGES.previewFailed }) });
export const eaVersionActionResponseSchema = z.object({ kumo_ea_version_enabled: z.boolean() }).meta({ id: 'EaVersionAction' });
export type EaVersionActionResponse = z.infer<typeof eaVersionActionResponseSchema>;

/** GET /api/admin/kumo/sso/{deploymentId}: a short-lived signed address, opened by a form post in a new window. */
export const managerSsoResponseSchema = z.object({ url: z.url(), expires_at: z.iso.datetime() }).meta({ id: 'ManagerSso' });
export type ManagerSsoResponse = z.infer<typeof managerSsoResponseSchema>;

/**
 * POST /api/admin/switch-user/{userId}: a read-only session in the customer's account for the staff member
 * (tokens in the jwt_token and refresh_token headers), ending by itself at expires_at.
 */
export const switchUserResponseSchema = z
  .object({ message: z.string(), customer_name: z.string(), expires_at: z.iso.datetime() })
  .meta({ id: 'SwitchUserResponse' });
export type SwitchUserResponse = z.infer<typeof switchUserResponseSchema>;

import type { z } from 'zod';
import type { ApiToken, CreateApiTokenRequest, CreatedApiToken } from './api-tokens.js';
import type { CreateWebhookRequest, CreatedWebhook, Webhook, WebhookTestResponse } from './webhooks.js';
import type { Statement } from './usage-exports.js';
import type { AutoStopResponse, PutAutoStopRequest } from './cluster-auto-stop.js';
import type {
  AdminAccountUsersPage,
  AdminClusterPage,
  AdminCostAnalysis,
  AdminSubscriptionsPage,
  CumulativeCost,
  CustomerDetail,
  CustomerPage,
  EaVersionActionResponse,
  KmAccessCheck,
  ManageKmAccessRequest,
  ManageKmAccessResponse,
  ManagerSsoResponse,
  RateHistoryPage,
  SwitchUserResponse,
} from './admin.js';
import type {
  AdminActionRequest,
  AdminActionResponse,
  AdminAuthenticateRequest,
  AdminAuthenticateResponse,
  AdminCancelRequest,
  AdminCancelResponse,
  AdminResendOtpRequest,
  PendingApproval,
} from './admin-actions.js';
import type {
  AuthenticateRequest,
  AuthenticateResponse,
  LoginRequest,
  MessageResponse,
  OtpSentResponse,
  RefreshTokenRequest,
  RegisterRequest,
  ResendOtpRequest,
  SwitchAccountRequest,
  UserDetail,
} from './auth.js';
import type { PaymentStatus, PurchaseRequest, PurchaseResponse, TransactionPage } from './billing.js';
import type { AutoTopUp, AutoTopUpRequest, PaymentMethodSetup } from './auto-top-up.js';
import type { Budget, BudgetRequest } from './budgets.js';
import type { ClientAddressResponse, NetworkAccessRequest, NetworkAccessResponse } from './cluster-network.js';
import type {
  AuditLogResponse,
  AuthenticateOperationRequest,
  CidrResponse,
  ClusterActionResponse,
  ClusterDetailsResponse,
  ClusterSsoResponse,
  ClusterViewResponse,
  CreateClusterRequest,
  CreateClusterResponse,
  CreateOperationRequest,
  CreateOperationResponse,
  DeploymentStatusResponse,
  EaVersionResponse,
  KumoVersionsResponse,
  ManagerAccessResponse,
  OperationResult,
  OperationStatusResponse,
  PutManagerAccessRequest,
  PutScheduleRequest,
  RegionMapping,
  ResendOperationOtpRequest,
  ScheduleResponse,
  TimelineResponse,
  ClusterQueriesResponse,
  ClusterQueryRequest,
  ResetClusterPasswordRequest,
  ResetClusterPasswordResponse,
  SqlResult,
} from './clusters.js';
import type { ClusterSizesResponse, PricePreview, ResizePreview, ResizeRequest, ResizeResponse } from './cluster-sizes.js';
import type {
  BalanceOutlook,
  ClusterConsumptionOverview,
  CreditAnalysis,
  HourlyRatePreview,
  RateCard,
  ReportUrlResponse,
  SubscriptionConsumptionOverview,
} from './metering.js';
import type { MarkNoticesReadRequest, MarkNoticesReadResponse, NoticePage } from './notices.js';
import type { CreateSubscriptionRequest, CreateSubscriptionResponse, DeleteSubscriptionResponse, Subscription } from './subscriptions.js';
import type {
  AccountAuditResponse,
  AccountUser,
  CheckUserResponse,
  DeleteUserRequest,
  HelpLinks,
  InviteRequest,
  InviteResponse,
  PendingInvitation,
  SubscriptionOption,
  acceptInviteRequestSchema,
  dataMessageResponseSchema,
} from './users.js';

/**
 * Every endpoint the console calls, by method and path, with its request body and response: the
 * console's API client takes its types from here, so a renamed field or path breaks the build on both
 * sides of the wire. Paths with an id in them are template patterns (`${string}` stands for the id).
 * An endpoint's schemas stay in its own file; add the endpoint here when the console starts calling it.
 */
interface Call<Request, Response> {
  request: Request;
  response: Response;
}
/** A call without a body. */
type NoBody = undefined;

export interface GetEndpoints {
  '/api/user/detail': UserDetail;
  '/api/user/check-user': CheckUserResponse;
  '/api/saas-common/help-document-links': HelpLinks;
  '/api/admin/users': CustomerPage;
  [path: `/api/admin/users/${string}`]: CustomerDetail;
  [path: `/api/admin/view-users/${string}`]: AdminAccountUsersPage;
  [path: `/api/admin/view-subscriptions/${string}`]: AdminSubscriptionsPage;
  [path: `/api/admin/view/credit-transactions/${string}`]: TransactionPage;
  [path: `/api/admin/current-resource-rate/${string}`]: RateCard;
  [path: `/api/admin/service-rate-history/${string}`]: RateHistoryPage;
  [path: `/api/admin/cost-analysis/${string}`]: AdminCostAnalysis;
  '/api/admin/view/cumulative-cost-consumption': CumulativeCost;
  '/api/admin/cluster/view': AdminClusterPage;
  [path: `/api/admin/node-details-view/${string}`]: ClusterDetailsResponse;
  /** The deployment template, a JSON file: read as a Blob. */
  [path: `/api/admin/download-cluster-template/${string}`]: Blob;
  /** A PDF receipt: read as a Blob. */
  [path: `/api/admin/download-transaction-receipt/${string}`]: Blob;
  [path: `/api/admin/check-km-access/${string}`]: KmAccessCheck;
  [path: `/api/admin/kumo/sso/${string}`]: ManagerSsoResponse;
  '/api/admin/approvals': PendingApproval[];
  '/api/admin/action/mine': PendingApproval[];
  '/api/account/users': AccountUser[];
  '/api/account/users-subscriptions': SubscriptionOption[];
  '/api/account/invitations': PendingInvitation[];
  '/api/account/audit-logs': AccountAuditResponse;
  '/api/subscription/list': Subscription[];
  '/api/subscription/details': Subscription;
  [path: `/api/credit/payment-status/${string}`]: PaymentStatus;
  [path: `/api/credit/view/credit-transactions/${string}`]: TransactionPage;
  /** A PDF receipt: read as a Blob. */
  [path: `/api/credit/subscription/${string}`]: Blob;
  '/api/cluster/region-mapping': RegionMapping;
  '/api/cluster/cidr': CidrResponse;
  '/api/cluster/check-kumo-ea-version': EaVersionResponse;
  '/api/cluster/kumo-versions': KumoVersionsResponse;
  '/api/cluster/sizes': ClusterSizesResponse;
  '/api/cluster/price-preview': PricePreview;
  [path: `/api/cluster/resize-preview/${string}`]: ResizePreview;
  '/api/cluster/view': ClusterViewResponse;
  [path: `/api/cluster/details/${string}`]: ClusterDetailsResponse;
  [path: `/api/cluster/deployment-details/status/${string}`]: DeploymentStatusResponse;
  [path: `/api/cluster/get-audit-logs/${string}`]: AuditLogResponse;
  [path: `/api/cluster/operation/status/${string}`]: OperationStatusResponse;
  [path: `/api/cluster/schedule/${string}`]: ScheduleResponse;
  [path: `/api/cluster/auto-stop/${string}`]: AutoStopResponse;
  [path: `/api/cluster/manager-access/${string}`]: ManagerAccessResponse;
  [path: `/api/cluster/kumo/sso/${string}`]: ClusterSsoResponse;
  [path: `/api/cluster/network-access/${string}`]: NetworkAccessResponse;
  '/api/user/client-address': ClientAddressResponse;
  [path: `/api/cluster/timeline/${string}`]: TimelineResponse;
  [path: `/api/cluster/queries/${string}`]: ClusterQueriesResponse;
  '/api/subscription/consumption/overview': SubscriptionConsumptionOverview[];
  [path: `/api/subscription/consumption/credit-analysis/${string}`]: CreditAnalysis;
  [path: `/api/subscription/consumption/rates/${string}`]: RateCard;
  [path: `/api/subscription/consumption/outlook/${string}`]: BalanceOutlook;
  [path: `/api/subscription/${string}/budget`]: Budget;
  [path: `/api/subscription/${string}/auto-top-up`]: AutoTopUp;
  [path: `/api/cluster/consumption/credit-analysis/${string}`]: CreditAnalysis;
  [path: `/api/cluster/consumption/overview/${string}`]: ClusterConsumptionOverview;
  '/api/cluster/consumption/hourly-rate': HourlyRatePreview;
  '/api/user/report-url': ReportUrlResponse;
  '/api/user/report-logout': MessageResponse;
  '/api/user/notifications': NoticePage;
  '/api/user/api-tokens': ApiToken[];
  '/api/account/webhooks': Webhook[];
  /** CSV files (read as Blob): see CONSUMPTION_EXPORT_PATHS. */
  [path: `/api/subscription/consumption/export/${string}`]: Blob;
  [path: `/api/subscription/statement/${string}`]: Statement;
  [path: `/api/cluster/consumption/export/${string}`]: Blob;
  [path: `/api/credit/export/credit-transactions/${string}`]: Blob;
  [path: `/api/cluster/export/audit-logs/${string}`]: Blob;
}

export interface PostEndpoints {
  '/api/user/login': Call<LoginRequest, OtpSentResponse>;
  '/api/user/register': Call<RegisterRequest, OtpSentResponse>;
  '/api/user/resend-otp': Call<ResendOtpRequest, OtpSentResponse>;
  '/api/user/authenticate': Call<AuthenticateRequest, AuthenticateResponse>;
  '/api/user/refresh-token': Call<RefreshTokenRequest, MessageResponse>;
  '/api/user/logout': Call<NoBody, MessageResponse>;
  '/api/user/switch-account': Call<SwitchAccountRequest, z.infer<typeof dataMessageResponseSchema>>;
  '/api/user/invite': Call<InviteRequest, InviteResponse>;
  '/api/user/invite/accept': Call<z.input<typeof acceptInviteRequestSchema>, AuthenticateResponse>;
  [path: `/api/user/invite/${string}/resend`]: Call<NoBody, MessageResponse>;
  '/api/subscription/create': Call<CreateSubscriptionRequest, CreateSubscriptionResponse>;
  '/api/credit/purchase': Call<PurchaseRequest, PurchaseResponse>;
  [path: `/api/credit/purchase/${string}/cancel`]: Call<NoBody, PaymentStatus>;
  [path: `/api/credit/cancel/${string}`]: Call<NoBody, PaymentStatus>;
  '/api/cluster/create': Call<CreateClusterRequest, CreateClusterResponse>;
  [path: `/api/cluster/query/${string}`]: Call<ClusterQueryRequest, SqlResult>;
  [path: `/api/cluster/reset-password/${string}`]: Call<ResetClusterPasswordRequest, ResetClusterPasswordResponse>;
  [path: `/api/cluster/start/${string}`]: Call<NoBody, ClusterActionResponse>;
  [path: `/api/cluster/stop/${string}`]: Call<NoBody, ClusterActionResponse>;
  [path: `/api/cluster/resize/${string}`]: Call<ResizeRequest, ResizeResponse>;
  '/api/user/operation': Call<CreateOperationRequest, CreateOperationResponse>;
  '/api/user/operation/authenticate': Call<AuthenticateOperationRequest, OperationResult>;
  '/api/user/operation/resend-otp': Call<ResendOperationOtpRequest, OperationResult>;
  '/api/admin/action': Call<AdminActionRequest, AdminActionResponse>;
  '/api/admin/action/authenticate': Call<AdminAuthenticateRequest, AdminAuthenticateResponse>;
  '/api/admin/action/resend-otp': Call<AdminResendOtpRequest, AdminActionResponse>;
  '/api/admin/action/cancel': Call<AdminCancelRequest, AdminCancelResponse>;
  [path: `/api/admin/manage-km-access/${string}`]: Call<ManageKmAccessRequest, ManageKmAccessResponse>;
  [path: `/api/admin/kumo-ea-version/${string}`]: Call<NoBody, EaVersionActionResponse>;
  [path: `/api/admin/switch-user/${string}`]: Call<NoBody, SwitchUserResponse>;
  '/api/user/switch-user/end': Call<NoBody, MessageResponse>;
  '/api/user/notifications/read': Call<MarkNoticesReadRequest, MarkNoticesReadResponse>;
  '/api/user/api-tokens': Call<CreateApiTokenRequest, CreatedApiToken>;
  '/api/account/webhooks': Call<CreateWebhookRequest, CreatedWebhook>;
  [path: `/api/account/webhooks/${string}/test`]: Call<NoBody, WebhookTestResponse>;
  [path: `/api/subscription/${string}/payment-method`]: Call<NoBody, PaymentMethodSetup>;
}

export interface PutEndpoints {
  '/api/account/delete-user': Call<DeleteUserRequest, MessageResponse>;
  [path: `/api/cluster/schedule/${string}`]: Call<PutScheduleRequest, ScheduleResponse>;
  [path: `/api/cluster/auto-stop/${string}`]: Call<PutAutoStopRequest, AutoStopResponse>;
  [path: `/api/cluster/manager-access/${string}`]: Call<PutManagerAccessRequest, ManagerAccessResponse>;
  [path: `/api/cluster/network-access/${string}`]: Call<NetworkAccessRequest, NetworkAccessResponse>;
  [path: `/api/subscription/${string}/budget`]: Call<BudgetRequest, Budget>;
  [path: `/api/subscription/${string}/auto-top-up`]: Call<AutoTopUpRequest, AutoTopUp>;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- no PATCH endpoint yet; the client's method stays typed.
export interface PatchEndpoints {}

export interface DeleteEndpoints {
  [path: `/api/subscription/delete/${string}`]: Call<NoBody, DeleteSubscriptionResponse>;
  [path: `/api/user/invite/${string}`]: Call<NoBody, MessageResponse>;
  [path: `/api/subscription/${string}/budget`]: Call<NoBody, Budget>;
  [path: `/api/user/api-tokens/${string}`]: Call<NoBody, MessageResponse>;
  [path: `/api/account/webhooks/${string}`]: Call<NoBody, MessageResponse>;
  [path: `/api/subscription/${string}/payment-method`]: Call<NoBody, AutoTopUp>;
}

export type GetPath = keyof GetEndpoints;
export type PostPath = keyof PostEndpoints;
export type PutPath = keyof PutEndpoints;
export type PatchPath = keyof PatchEndpoints;
export type DeletePath = keyof DeleteEndpoints;

/** The endpoints with a body, by method. */
export interface BodyEndpoints {
  POST: PostEndpoints;
  PUT: PutEndpoints;
  PATCH: PatchEndpoints;
  DELETE: DeleteEndpoints;
}
export type RequestOf<M extends keyof BodyEndpoints, P extends keyof BodyEndpoints[M]> =
  BodyEndpoints[M][P] extends Call<infer R, unknown> ? R : never;
export type ResponseOf<M extends keyof BodyEndpoints, P extends keyof BodyEndpoints[M]> =
  BodyEndpoints[M][P] extends Call<unknown, infer R> ? R : never;

import { FREE_CREDIT_VALIDITY_DAYS, SIGN_UP_CREDIT_USD } from './constants.js';
import { SIGN_IN_MESSAGES } from './sign-in-messages.js';

/** Every user-facing message, written once (spec section 8 and decisions.md). */
export const MESSAGES = {
  ...SIGN_IN_MESSAGES,
  tokensRefreshed: 'Tokens refreshed.',
  loggedOut: 'Logged out.',
  paymentNotCompleted: 'The payment could not be completed.',
  nameFromProfile: 'This person is already registered; the name is taken from their profile.',
  otpRequired: 'OTP is required.',
  otpFormat: 'OTP must be 6 digits.',
  termsRequired: 'Please accept the Terms of Use and the Privacy Policy.',

  userNotRegistered: 'The email you provided is not registered with the product. Please consider signing up.',
  userAlreadyRegistered: 'This email is already registered with the product. Please log in.',
  otpInvalid: 'The OTP you entered is invalid. Please try again.',
  otpExpired: 'The OTP has expired. Please request a new one.',
  otpNotRequested: 'No OTP has been requested for this email. Please start again.',
  otpLocked: 'Your account is locked for today after three invalid OTP attempts. Please try again tomorrow.',
  otpLockWarning: 'The account is locked for a calendar day after three consecutive invalid OTPs or three invalid OTPs within an hour.',
  otpResendLimit: 'Too many OTP requests. Please wait an hour before requesting another OTP.',
  otpSent: 'An OTP has been sent to your email.',

  jwtExpired: 'JWT Token has expired.',
  refreshExpired: 'Refresh Token has expired.',
  refreshInvalid: 'Invalid Refresh token.',
  refreshNotFound: 'Refresh token not found.',
  roleMappingNotFound: 'Account Role Mapping not found.',
  notSignedIn: 'You are not signed in. Please log in.',
  forbidden: 'You are not allowed to do this.',
  notStaff: 'This identity is not registered as Kumo Cloud staff. Please contact your administrator.',
  sessionExpired: 'Your session has expired. Please log in to continue.',
  ssoNotConfigured: 'Single sign-on is not configured for this portal.',
  ssoUnavailable: 'The identity provider cannot be reached. Please try again later.',
  ssoCancelled: 'Single sign-on was cancelled.',
  ssoExpired: 'This single sign-on attempt has expired or was already used. Please try again.',
  ssoFailed: 'Single sign-on failed. Please try again.',
  ssoNoEmail: 'The identity provider did not share an e-mail address for this identity.',
  popupBlocked: 'Popup blocked! Please allow popups for this website.',

  validationFailed: 'The request is not valid.',
  malformedJson: 'The request body is not valid JSON.',
  bodyTooLarge: 'The request body is too large.',
  unsupportedMediaType: 'The request body must be JSON.',
  rateLimited: 'Too many requests. Please try again in a minute.',
  notFound: 'The requested resource was not found.',
  routeNotFound: 'This API endpoint does not exist.',
  internal: 'Internal Server Error',
  serviceUnavailable: 'Kumo Cloud cannot reach its database right now. Please try again in a moment.',
  invalidInputValue: 'A value in the request is not valid (wrong format, out of range or too long).',
  uriTooLong: 'The request address is too long.',
  headersTooLarge: "The request headers are too large. Clearing this site's cookies may help.",
  badRequest: 'The request could not be read.',
  unknownApiVersion: 'Kumo-Version must be one of the API versions listed in the documentation, as YYYY-MM-DD.',
  idempotencyKeyInvalid: 'Idempotency-Key must be 1 to 255 printable characters.',
  idempotencyKeyOtherRequest: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  idempotencyKeyInProgress: 'A request with this Idempotency-Key is still being processed. Please try again in a moment.',
  mailRateLimited: 'Too many sign-in and invitation e-mails are being sent right now. Please try again in a minute.',
  noResponse: 'No response from the server.',
  noStaffViews: 'No Kumo Cloud staff member viewed this console or acted on this account in this month.',

  noClusterDeployed: 'No cluster has been deployed yet.',
  noClusterClickNew: 'No cluster has been deployed yet. Click New to start the cluster deployment.',
  noUserAdded: 'No user has been added yet.',
  noSubscriptions: 'No subscriptions yet.',
  noUsageCost: 'Usage cost for the current period is not available.',
  noCustomersListed: 'No customers have been listed yet.',
  customerDetailsUnavailable: 'Customer details are unavailable.',
  unauthorizedTitle: '401 Unauthorized',
  accountSwitchRoleMappingNotFound: 'Account role mapping not found.',

  selectSubscription: 'Please Select Atleast one subscription.',
  userDetailsUnavailable: 'User details are not available.',
  addUserHint: 'Click Add to invite a user to this account.',
  removeUserRefused: 'Unauthorized access to remove this user.',
  userRemoved: 'The user has been removed.',
  invitationSent: 'An invitation has been sent.',
  invitationResent: 'A new invitation link has been sent; the previous link no longer works.',
  invitationRevoked: 'The invitation has been revoked.',
  invitationNotFound: 'This invitation is no longer pending.',
  noPendingInvitations: 'No invitations are waiting to be accepted.',
  revokeInvitationConfirm: 'Revoke this invitation? Its link will stop working.',
  clusterMemberConsole: "This account's console is for its owner and admins. As a Cluster Member of this account you cannot use it here.",
  clusterMemberTools:
    "You work in the clusters' own tools instead: open your cluster's Kumo Manager or Web Portal at the address the account's owner or admins gave you.",
  clusterMemberInviteNote:
    "A Cluster Member cannot use this console: signing in here shows only the 401 Unauthorized page. They work in the clusters' own tools, the Kumo Manager and the Web Portal of each cluster in the subscriptions you choose, at the addresses you share with them.",
  freeCreditsFirstSubscription: `Your first subscription gets $${SIGN_UP_CREDIT_USD} of free credits that expire in ${FREE_CREDIT_VALIDITY_DAYS} days.`,
  noFreeCreditsLaterSubscription: 'Only the first subscription gets sign-up credits: this new subscription starts with no free credits.',
  alreadyMember: 'This person already belongs to this account.',
  accountSwitched: 'Account switched successfully.',
  refreshTokenMissing: 'Refresh token not found.',
  customerAreaOnly: 'Only account owners and account admins can do this.',
  xsrfInvalid: 'The request could not be verified. Please reload the page and try again.',
  crossSiteRefused: 'Cross-site requests are not allowed.',

  pageNotFound: 'Page Not Found',
  accessExpired: 'Access Expired: Either link is expired or User already accepted the invite.',
  authenticating: 'Authenticating please wait…',
  validating: 'Validating please wait…',

  // Money: subscriptions, funds, payments and receipts.
  subscriptionNameRequired: 'Subscription Name is required.',
  subscriptionNameFormat:
    'Subscription Name must start with 3 letters, followed by up to 47 letters, digits, dashes, underscores or spaces.',
  subscriptionNameTaken: 'A subscription with this name already exists.',
  remarkTooLong: 'Remarks cannot exceed 200 characters.',
  controlCharacters: 'Text cannot contain control characters (such as NUL or escape).',
  checkoutNotPending: 'Only a pending checkout can be cancelled.',
  checkoutCancelled: 'The checkout was cancelled.',
  transferTargetInvalid: 'Choose another active subscription of this account to receive the funds.',
  subscriptionFundsTransferred: 'The paid balance was moved and the subscription deleted.',
  subscriptionsFetchFailed: 'Failed to fetch the list of subscriptions.',
  subscriptionCreateFailed: 'Failed to add subscriptions.',
  subscriptionNotFound: 'Could not able to find subscription by the name.',
  subscriptionCreated: 'The subscription has been created.',
  subscriptionDeleted: 'The subscription has been deleted.',
  subscriptionHasClusters: 'This subscription has clusters. Delete its clusters before deleting the subscription.',
  /** 409 TOP_UP_PENDING: its money would land on a deleted subscription. */
  subscriptionTopUpPending:
    'An automatic top-up of this subscription is still being charged. Delete the subscription once it has been credited or has failed.',
  subscriptionDetailsUnavailable: 'Subscription details are unavailable.',
  addFundsMinimum: 'Minimum amount required to add funds cannot be less than 1.',
  addFundsMaximum: 'Maximum limit for adding fund is 999,999.',
  amountDecimals: 'The amount can have at most 2 decimal places.',
  currencyUnsupported: 'Only USD is supported.',
  minimumBalance:
    'To continue using services, you must maintain a minimum balance of 100. If your balance is less than 100, please add funds.',
  insufficientFunds: 'The balance, including the overdue limit, does not cover this charge.',
  refundNotAllowed: 'This refund exceeds what was paid and is still unspent.',
  idempotencyKeyReused: 'This operation was already recorded with different details.',
  noTransactions: "The user hasn't done any transactions yet.",
  transactionNotFound: 'The transaction was not found.',
  transactionKindInvalid: 'Choose top-ups, usage, free credits, staff credits, transfers or refunds.',
  adminReceiptNotDownloadable: 'Admin-added transactions receipts cannot be downloaded.',
  receiptNotAvailable: 'A receipt is available only for successful payments.',
  paymentGatewayUnavailable: 'The payment provider could not be reached. Please try again in a moment.',
  paymentMismatch: 'The payment does not match the purchase it belongs to.',
  webhookSignatureInvalid: 'The webhook signature is missing, invalid or too old.',
  cardDeclined: 'Your card was declined.',
} as const;

/**
 * The console's texts for a call that got no usable answer (spec sections 7 and 8: request failed with status code,
 * network error, aborted, time-out, cancelled, unsupported protocol).
 */
export const TRANSPORT_MESSAGES = {
  networkError: 'Network error: No response from the server. Check your connection and try again.',
  aborted: 'The request was aborted before the server answered. Please try again.',
  timeout: 'The server did not answer in time (time-out). Please try again.',
  cancelled: 'The request was cancelled.',
} as const;

/** The text of an answer outside 200-299 that carries no error body. */
export function requestFailedMessage(status: number): string {
  return `Request failed with status code ${status}`;
}

/** The text of a call to an address the console cannot send over HTTP. */
export function unsupportedProtocolMessage(protocol: string): string {
  return `Unsupported protocol ${protocol} (the console calls its API over HTTP or HTTPS only).`;
}

/** Cluster texts (spec sections 2, 4, 5 and 8). */
export const CLUSTER_MESSAGES = {
  deploymentInProgress: 'Cluster deployment is in progress.',
  deploymentTakesAnHour: 'This process takes approximately 1 hour.',
  deploymentFailed: 'Cluster deployment has failed.',
  deploymentCompleted: 'Cluster deployment completed.',
  noClusterDeployed: 'No cluster has been deployed yet.',
  noClusterClickNew: 'No cluster has been deployed yet. Click New to start the cluster deployment.',
  clusterDetailsUnavailable: 'Clusters details are unavailable.',
  noAuditLogs: 'No logs have occurred for this month.',
  insufficientBalance: 'Your balance is insufficient to create a new cluster. You must have at least $100 to create a new cluster.',
  costAnalysisUnavailable: 'Usage cost for the current period is not available.',
  statusRetrying: 'The status shown may be out of date. Trying again in 15 seconds.',
  statusPollStopped: 'The status shown may be out of date, and it is no longer read automatically.',
  statusCheckAgain: 'Check again',

  nameRequired: 'Cluster Name is required.',
  nameLength: 'Cluster Name must be 3 to 50 characters long.',
  nameFormat: 'Cluster Name must start with 3 letters, followed by up to 47 letters, digits, dashes, underscores or spaces.',
  nameTaken: 'A cluster with this name already exists in this subscription.',
  descriptionTooLong: 'Description cannot exceed 200 characters.',
  subscriptionRequired: 'Please select a subscription.',
  cloudProviderUnsupported: 'Only AWS is available for cluster creation.',
  cidrRequired: 'CIDR is required.',
  cidrFormat: 'Enter the CIDR as x.x.x.x/n, with each number from 0 to 255 and n from 0 to 32.',
  cidrPrefixRange: 'The CIDR block must be between /16 and /26.',
  cidrNetworkAddress: 'The CIDR must be a network address with a prefix from /16 to /26, e.g. 10.0.0.0/16.',
  cidrOverlap: 'This CIDR overlaps a cluster of this account in the selected regions.',
  regionRequired: 'Region is required.',
  regionUnknown: 'This region is not available.',
  backupRegionRequired: 'Backup Region is required when Disaster Recovery is enabled.',
  backupRegionWithoutDr: 'A Backup Region can be set only when Disaster Recovery is enabled.',
  backupRegionInvalid: 'This backup region is not available for the selected region.',
  passwordRequired: 'Password is required.',
  passwordFormat:
    'Password must have at least 12 characters, an uppercase letter, a digit and a special character (#?!@$%^&*-), with no spaces.',
  confirmPasswordRequired: 'Confirm Password is required.',
  passwordMismatch: 'Password and Confirm Password do not match.',
  versionRequired: 'Kumo Version is required.',
  versionUnknown: 'This Kumo version is not available.',

  clusterNotFound: 'The cluster was not found.',
  startNotAllowed: 'The cluster can be started only when it is offline.',
  stopNotAllowed: 'The cluster can be stopped only when it is online.',
  resetPasswordNotAllowed: 'The password can be changed only once the cluster is deployed, and until it is deleted.',
  deleteNotAllowed: 'The cluster cannot be deleted while it is deploying, starting, stopping or being deleted.',
  deploymentStarted: 'The cluster deployment has started.',
  startStarted: 'The cluster is starting.',
  stopStarted: 'The cluster is stopping.',
  operationUnknown: 'This action is not supported.',
  operationNotFound: 'The operation was not found.',
  operationExpired: 'This operation has expired. Please start again.',
  operationUsed: 'This operation has already been approved.',
  auditStartDateFormat: 'startDate must be the first day of a month, as YYYY-MM-01T00:00:00.',
  timelineBeforeFormat: 'before must be a day, as YYYY-MM-DD.',
  noTimeline: 'Nothing has happened to this cluster yet.',
  scheduleInvalid: 'The schedule is not valid.',
  scheduleTimeFormat: 'Times must be HH:MM (24-hour).',
  scheduleTooManyRules: 'A schedule can have at most 28 rules.',
  scheduleTimeZoneInvalid: 'The time zone is not valid.',
  scheduleSaved: 'The schedule has been saved.',
  scheduleNeedsRules: 'Add at least one start or stop time before turning the schedule on.',
  managerUnavailable: 'Kumo Manager is available only while the cluster is online.',
  managerNoAccess: "Your access level on this cluster's manager is No admin access.",
  managerInvalidUrl: 'Invalid URL of the manager.',
  managerOpenFailed: 'Failed to open the manager.',
  portalUnavailable: 'The Web Portal is available only while the cluster is online.',
  portalInvalidUrl: 'Invalid URL of the Web Portal.',
  portalOpenFailed: 'Failed to open the Web Portal.',
  portalOpening: 'Opening Web Portal',
  managerPageInvalid: 'Choose manager or portal.',
  managerOpening: 'Opening manager',
  managerAccessOneAdmin: 'At least one user must keep administrative privileges.',
  managerAccessFailed: 'Unable to make the access changes, please try again later.',
  managerAccessSaved: 'Manager access has been updated.',
  managerAccessLevelInvalid: 'Choose Full admin, Full kmuser, Limited or No admin access.',
  managerAccessUserUnknown: 'This person is not a member of the account.',
  managerAccessDuplicate: 'Each person can be named only once.',
  managerAccessNothingChanged: 'Nothing to change.',
} as const;

/**
 * Where a cluster deletion's OTP went: the account owner's e-mail, said as "you" when the owner is the one deleting,
 * so nobody waits on an approver who is herself.
 */
export function deletionOtpSentMessage(approverEmail: string, sentToYou: boolean): string {
  return sentToYou
    ? `An OTP has been sent to you at ${approverEmail}. Enter it below to approve the deletion.`
    : `An OTP has been sent to the account owner at ${approverEmail}. Get the OTP from them and enter it below.`;
}

/** The same after Resend. */
export function deletionOtpResentMessage(approverEmail: string, sentToYou: boolean): string {
  return sentToYou
    ? `A new OTP has been sent to you at ${approverEmail}.`
    : `A new OTP has been sent to the account owner at ${approverEmail}.`;
}

/** The message shown once the approver's OTP started a deletion (spec section 4). */
export function clusterDeletionStartedMessage(cluster: string, subscription: string): string {
  return `Deletion of the ${cluster} cluster for ${subscription} has started and will be completed within the next 5-10 minutes.`;
}

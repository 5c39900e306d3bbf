/**
 * Spec texts, limits and shapes that @kumo/contract does not export yet.
 * Each belongs in the contract; move it there and import it from '@kumo/contract' once it lands.
 */
import { MESSAGES, type ErrorCode } from '@kumo/contract';

/** Spec section 9: free credits expire 30 days after issue. */
export const FREE_CREDIT_VALIDITY_DAYS = 30;

/** Spec section 8 empty states and status texts used by the console. */
export const CONSOLE_MESSAGES = {
  noClusterDeployed: 'No cluster has been deployed yet.',
  noClusterClickNew: 'No cluster has been deployed yet. Click New to start the cluster deployment.',
  noUserAdded: 'No user has been added yet.',
  noSubscriptions: 'No subscriptions yet.',
  noUsageCost: 'Usage cost for the current period is not available.',
  noCustomersListed: 'No customers have been listed yet.',
  customerDetailsUnavailable: 'Customer details are unavailable.',
  unauthorizedTitle: '401 Unauthorized',
  accountSwitchRoleMappingNotFound: 'Account role mapping not found.',
} as const;

/** Fallback texts by error code, for error bodies that carry no error_message (spec section 8). */
export const ERROR_CODE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  USER_NOT_FOUND: MESSAGES.userNotRegistered,
  USER_ALREADY_EXISTS: MESSAGES.userAlreadyRegistered,
  OTP_INVALID: MESSAGES.otpInvalid,
  OTP_EXPIRED: MESSAGES.otpExpired,
  OTP_NOT_REQUESTED: MESSAGES.otpNotRequested,
  OTP_LOCKED: MESSAGES.otpLocked,
  OTP_RESEND_LIMIT: MESSAGES.otpResendLimit,
  TOKEN_EXPIRED: MESSAGES.jwtExpired,
  REFRESH_TOKEN_EXPIRED: MESSAGES.refreshExpired,
  REFRESH_TOKEN_INVALID: MESSAGES.refreshInvalid,
  ROLE_MAPPING_NOT_FOUND: MESSAGES.roleMappingNotFound,
  TOKEN_MISSING: MESSAGES.notSignedIn,
  FORBIDDEN: MESSAGES.forbidden,
  RATE_LIMITED: MESSAGES.rateLimited,
  NOT_FOUND: MESSAGES.notFound,
  INTERNAL_ERROR: MESSAGES.internal,
};

/** GET /api/admin/users item and page (spec section 7, Admin). */
export interface CustomerListItem {
  user_id: string;
  user_name: string;
  email_id: string;
}
export interface CustomerPage {
  content: CustomerListItem[];
  totalPages: number;
}

/** POST /api/user/switch-account body (spec section 7, Auth). */
export interface SwitchAccountRequest {
  switching_account_id: string;
}

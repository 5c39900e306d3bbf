// No zod here: the console's sign-in screen reads error bodies with isErrorResponse below (first-download budget);
// the zod schema the API documents and tests with is in error-schema.ts.
import { MESSAGES } from './messages.js';

/** Error codes the API returns in errorDetails.error_code. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'MALFORMED_JSON',
  'BODY_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'USER_NOT_FOUND',
  'USER_ALREADY_EXISTS',
  'OTP_INVALID',
  'OTP_EXPIRED',
  'OTP_NOT_REQUESTED',
  'OTP_LOCKED',
  'OTP_RESEND_LIMIT',
  'TOKEN_MISSING',
  'TOKEN_EXPIRED',
  'TOKEN_INVALID',
  'REFRESH_TOKEN_EXPIRED',
  'REFRESH_TOKEN_INVALID',
  'ROLE_MAPPING_NOT_FOUND',
  'FORBIDDEN',
  'ALREADY_MEMBER',
  'INVITATION_INVALID',
  'XSRF_INVALID',
  'CROSS_SITE',
  'NOT_FOUND',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'MAIL_RATE_LIMITED',
  // Money
  'SUBSCRIPTION_NAME_TAKEN',
  'SUBSCRIPTION_HAS_CLUSTERS',
  'INSUFFICIENT_FUNDS',
  'REFUND_NOT_ALLOWED',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'RECEIPT_NOT_AVAILABLE',
  'PAYMENT_GATEWAY_UNAVAILABLE',
  'PAYMENT_MISMATCH',
  'WEBHOOK_SIGNATURE_INVALID',
  'SUBSCRIPTION_HAS_FUNDS',
  'TRANSFER_TARGET_INVALID',
  'CHECKOUT_NOT_PENDING',
  'BUDGET_EXCEEDED',
  'PAYMENT_METHOD_REQUIRED',
  'TOP_UP_PENDING',
  // Clusters
  'CLUSTER_NAME_TAKEN',
  'CLUSTER_STATE_CONFLICT',
  'CIDR_OVERLAP',
  'INSUFFICIENT_BALANCE',
  'OPERATION_EXPIRED',
  'OPERATION_ALREADY_USED',
  // A cluster's SQL endpoint and query console
  'CREDENTIALS_INVALID',
  'NETWORK_ACCESS_DENIED',
  'CLUSTER_NOT_ONLINE',
  'QUERY_FAILED',
  'QUERY_TOO_LARGE',
  'QUERY_TIMEOUT',
  'STATEMENT_REFUSED',
  'SQL_ENDPOINT_UNAVAILABLE',
  // Admin area
  'NO_APPROVER',
  'OPERATION_TAMPERED',
  'OPERATION_CANCELLED',
  'READ_ONLY_VIEW',
  // Personal API tokens
  'TOKEN_SCOPE',
  'TOKEN_IP_NOT_ALLOWED',
  'TOKEN_NOT_ALLOWED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorResponse {
  /** request_id: the answer's Request-Id, so a support request can name the call. */
  errorDetails: { error_code: ErrorCode; error_message: string; request_id?: string };
  field_errors?: Record<string, string>;
}

const isErrorCode = (value: unknown): value is ErrorCode => (ERROR_CODES as readonly unknown[]).includes(value);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The same check as errorResponseSchema, by hand: an error body in the contract's shape with a known code. */
export function isErrorResponse(value: unknown): value is ErrorResponse {
  if (!isRecord(value) || !isRecord(value.errorDetails)) return false;
  const { error_code, error_message } = value.errorDetails;
  if (!isErrorCode(error_code) || typeof error_message !== 'string') return false;
  const fieldErrors = value.field_errors;
  return fieldErrors === undefined || (isRecord(fieldErrors) && Object.values(fieldErrors).every((text) => typeof text === 'string'));
}

/** Readable text by error code, for error bodies that carry no error_message. */
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
  SERVICE_UNAVAILABLE: MESSAGES.serviceUnavailable,
};

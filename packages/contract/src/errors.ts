import { z } from 'zod';
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
  // Money
  'SUBSCRIPTION_NAME_TAKEN',
  'SUBSCRIPTION_HAS_CLUSTERS',
  'INSUFFICIENT_FUNDS',
  'REFUND_NOT_ALLOWED',
  'IDEMPOTENCY_KEY_REUSED',
  'RECEIPT_NOT_AVAILABLE',
  'PAYMENT_GATEWAY_UNAVAILABLE',
  'PAYMENT_MISMATCH',
  'WEBHOOK_SIGNATURE_INVALID',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorResponseSchema = z
  .object({
    errorDetails: z.object({
      error_code: z.string(),
      error_message: z.string(),
    }),
    field_errors: z.record(z.string(), z.string()).optional(),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

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
};

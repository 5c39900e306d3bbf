/** Product-wide constants shared by the API and the console (spec sections 9 and decisions.md). */
export const PRODUCT = {
  name: 'Kumo Analytics Cloud',
  shortName: 'Kumo Cloud',
  version: '1.4.0',
  titleSuffix: 'Kumo Cloud',
  vendor: 'Kumo Cloud, Inc.',
} as const;

export const OTP = {
  length: 6,
  validMinutes: 10,
  resendCountdownSeconds: 59,
  /** One initial OTP plus five resends per rolling hour. */
  maxSendsPerHour: 6,
  /** Three consecutive invalid OTPs, or three within an hour, lock the e-mail for the rest of the UTC day. */
  maxInvalidAttempts: 3,
} as const;

export const TOKENS = {
  accessTokenMinutes: 15,
  refreshTokenDays: 7,
  /** How long a staff member's read-only view of a customer's console lasts at most. */
  userSwitchedMinutes: 30,
  issuer: 'kumo-cloud',
  audience: 'kumo-console',
} as const;

export const LIMITS = {
  nameMaxLength: 50,
  nameWordMinLetters: 2,
  emailMaxLength: 254,
  /** Upper bound on any JSON request body, in bytes. */
  bodyMaxBytes: 64 * 1024,
} as const;

export const UI_TIMING = {
  errorBannerMs: 5000,
  notificationMs: 4000,
  switchNotificationMs: 2500,
  tooltipEnterDelayMs: 100,
  popupCloseDelayMs: 500,
  pollingMs: 15000,
} as const;

export const UI_SIZES = {
  emailEllipsisThresholdPx: 350,
} as const;

export const SIGN_UP_CREDIT_USD = 500;
export const FREE_CREDIT_VALIDITY_DAYS = 30;

export const PAGE_SIZES = {
  customers: 50,
  transactions: 20,
  auditLogs: 20,
  adminLists: 20,
} as const;

export const STORAGE_KEYS = {
  jwtToken: 'jwtToken',
  refreshToken: 'refreshToken',
  userInfo: 'userInfo',
  /** The staff member's own session, kept aside while they view a customer's console. */
  staffSession: 'staffSession',
} as const;

export const HEADERS = {
  correlationId: 'x-correlation-id',
  /** The same id as the correlation id, under the name integrators look for. */
  requestId: 'request-id',
  /** The dated version of the API a caller asks for, and the one an answer was made by. */
  apiVersion: 'kumo-version',
  idempotencyKey: 'idempotency-key',
  userTimeZone: 'usertimezone',
  jwtToken: 'jwt_token',
  refreshToken: 'refresh_token',
} as const;

/**
 * The API's dated versions, oldest first; the last is what a call without Kumo-Version gets. A change that could
 * break a working client adds a version (docs/api.md says which changes do and how long an old one is kept).
 */
export const API_VERSIONS = ['2026-11-29'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

export const DATE_FORMAT = 'MMM D, YYYY h:mm A';
export const MONTH_FORMAT = 'MMM, YYYY';

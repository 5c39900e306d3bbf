/**
 * Turns AWS SDK failures into CloudRequestError with a sentence an operator can act on, and says
 * whether trying again later may help (throttling, capacity, transient server errors) or not
 * (permissions, credentials, limits, a stack that does not exist).
 */
import { CloudRequestError } from '../cloud-provisioner.js';

interface SdkErrorShape {
  name?: string;
  message?: string;
  code?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

const RETRYABLE_NAMES = new Set([
  'Throttling',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'ServiceUnavailable',
  'InternalFailure',
  'InternalError',
  'IncorrectInstanceState',
  'IncorrectState',
  'InsufficientInstanceCapacity',
  'TimeoutError',
  'RequestTimeout',
]);
const CREDENTIAL_NAMES = new Set([
  'CredentialsProviderError',
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'AuthFailure',
  'SignatureDoesNotMatch',
]);
const PERMISSION_NAMES = new Set(['AccessDenied', 'AccessDeniedException', 'UnauthorizedOperation', 'Blocked']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** True when CloudFormation says the stack is not there ("Stack with id X does not exist"). */
export function isStackMissing(error: unknown): boolean {
  const e = error as SdkErrorShape;
  return (e?.name === 'ValidationError' || e?.name === 'StackNotFoundException') && /does not exist/i.test(e.message ?? '');
}

export function errorName(error: unknown): string | undefined {
  return (error as SdkErrorShape)?.name;
}

/** `action` completes "Could not …", e.g. "create the stack kumo-1". */
export function toCloudError(error: unknown, action: string): CloudRequestError {
  if (error instanceof CloudRequestError) return error;
  const e = (error ?? {}) as SdkErrorShape;
  const name = e.name ?? 'Error';
  const detail = e.message ? `${name}: ${e.message}` : name;
  const fail = (why: string, retryable: boolean) => new CloudRequestError(`Could not ${action}: ${why} (${detail})`, retryable);

  if (isStackMissing(error)) return fail('the stack does not exist', false);
  if (name === 'InsufficientInstanceCapacity') return fail('AWS has no capacity for these instance types in the zone right now', true);
  if (name === 'IncorrectInstanceState' || name === 'IncorrectState') return fail('an instance is changing state, try again shortly', true);
  if (RETRYABLE_NAMES.has(name)) return fail('AWS is busy or throttling requests', true);
  if (CREDENTIAL_NAMES.has(name)) return fail('the AWS credentials of the portal are missing, expired or invalid', false);
  if (PERMISSION_NAMES.has(name)) return fail('the IAM policy of the portal does not allow it (see docs/operations.md)', false);
  if (name === 'LimitExceededException') return fail('the AWS account has reached a CloudFormation limit', false);
  if (name === 'InsufficientCapabilitiesException') return fail('the stack needs IAM capabilities that were not granted', false);
  if (name === 'AlreadyExistsException') return fail('a stack with this name already exists', false);
  if (name === 'ValidationError') return fail('CloudFormation refused the request', false);
  if (/region is missing/i.test(e.message ?? '')) return fail('no AWS region is configured (set AWS_REGION)', false);
  if ((e.code && NETWORK_CODES.has(e.code)) || NETWORK_CODES.has(name)) return fail('AWS could not be reached', true);
  const status = e.$metadata?.httpStatusCode;
  if (e.$retryable || (status !== undefined && status >= 500)) return fail('AWS failed to answer', true);
  return fail('AWS refused the request', false);
}

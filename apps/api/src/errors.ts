import type { ErrorCode, ErrorResponse } from '@kumo/contract';
import { MESSAGES } from '@kumo/contract';

/** A failure the caller can act on: it carries the HTTP status, a code and a readable message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toResponse(): ErrorResponse {
    return {
      errorDetails: { error_code: this.code, error_message: this.message },
      ...(this.fieldErrors ? { field_errors: this.fieldErrors } : {}),
    };
  }
}

export const badRequest = (code: ErrorCode, message: string, fieldErrors?: Record<string, string>) =>
  new AppError(400, code, message, fieldErrors);
export const unauthorized = (code: ErrorCode, message: string) => new AppError(401, code, message);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError(403, 'FORBIDDEN', message);
export const notFound = (code: ErrorCode = 'NOT_FOUND', message: string = MESSAGES.notFound) => new AppError(404, code, message);
export const conflict = (code: ErrorCode, message: string) => new AppError(409, code, message);
export const businessRule = (code: ErrorCode, message: string) => new AppError(422, code, message);
export const tooManyRequests = (code: ErrorCode, message: string) => new AppError(429, code, message);

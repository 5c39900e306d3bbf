// A hand-written check, not the zod schema: this module is on the sign-in screen's first download (its budget).
import { ERROR_CODE_MESSAGES, type ErrorCode, type ErrorResponse, isErrorResponse, MESSAGES } from '@kumo/contract';

/** A failed call: the server's error body when it answered, or a transport failure when it did not. */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly code: ErrorCode | undefined;
  readonly body: ErrorResponse | undefined;

  constructor(message: string, options: { status?: number; body?: ErrorResponse } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status;
    this.body = options.body;
    this.code = options.body?.errorDetails.error_code;
  }

  get fieldErrors(): Record<string, string> {
    return this.body?.field_errors ?? {};
  }

  /** Builds the error from whatever the server sent: the error message, else the code's text, else the status. */
  static fromResponse(status: number, payload: unknown): ApiError {
    if (!isErrorResponse(payload)) return new ApiError(`Request failed with status code ${status}`, { status });
    const { error_code, error_message } = payload.errorDetails;
    const message = error_message || ERROR_CODE_MESSAGES[error_code] || error_code;
    return new ApiError(message, { status, body: payload });
  }

  static noResponse(): ApiError {
    return new ApiError(MESSAGES.noResponse);
  }
}

/** The text to show a user for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return MESSAGES.somethingWentWrong;
}

// A hand-written check, not the zod schema: this module is on the sign-in screen's first download (its budget).
import {
  ERROR_CODE_MESSAGES,
  type ErrorCode,
  type ErrorResponse,
  isErrorResponse,
  MESSAGES,
  requestFailedMessage,
  TRANSPORT_MESSAGES,
  unsupportedProtocolMessage,
} from '@kumo/contract';

/** Why a call got no answer: no connection, the browser dropped it, it took too long, its caller cancelled it. */
export type TransportFailure = keyof typeof TRANSPORT_MESSAGES;

/** A failed call: the server's error body when it answered, or a transport failure when it did not. */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly code: ErrorCode | undefined;
  readonly body: ErrorResponse | undefined;
  /** Set when the call got no answer, or could not be sent ('unsupportedProtocol'). */
  readonly transport: TransportFailure | 'unsupportedProtocol' | undefined;

  constructor(
    message: string,
    options: { status?: number; body?: ErrorResponse; transport?: TransportFailure | 'unsupportedProtocol' } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status;
    this.body = options.body;
    this.transport = options.transport;
    this.code = options.body?.errorDetails.error_code;
  }

  get fieldErrors(): Record<string, string> {
    return this.body?.field_errors ?? {};
  }

  /** Builds the error from whatever the server sent: the error message, else the code's text, else the status. */
  static fromResponse(status: number, payload: unknown): ApiError {
    if (!isErrorResponse(payload)) return new ApiError(requestFailedMessage(status), { status });
    const { error_code, error_message } = payload.errorDetails;
    const message = error_message || ERROR_CODE_MESSAGES[error_code] || error_code;
    return new ApiError(message, { status, body: payload });
  }

  /** A call that got no answer, in the words for why. */
  static transportFailure(failure: TransportFailure): ApiError {
    return new ApiError(TRANSPORT_MESSAGES[failure], { transport: failure });
  }

  /** A call to an address that is not HTTP or HTTPS, refused before it is sent. */
  static unsupportedProtocol(protocol: string): ApiError {
    return new ApiError(unsupportedProtocolMessage(protocol), { transport: 'unsupportedProtocol' });
  }
}

/** The text to show a user for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return MESSAGES.somethingWentWrong;
}

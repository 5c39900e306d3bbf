/** What went wrong, and the exit status each kind of failure ends the command with. */

/** The exit statuses of `kumo`: a script may tell a refusal from a typo and from a portal out of reach. */
export const EXIT = {
  ok: 0,
  /** The portal refused or failed the call (any 4xx or 5xx answer). */
  api: 1,
  /** The command line itself is wrong: an unknown option, a missing argument, a bad value. */
  usage: 2,
  /** The portal could not be reached, or did not answer in time. */
  network: 3,
  /** No token: neither `kumo login` nor KUMO_TOKEN. */
  signedOut: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the user can act on: its message is printed as `kumo: <message>`, never a stack trace. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);

/** An answer of the portal that is not a success, with what the error body and headers said. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    readonly apiMessage: string,
    readonly code: string | undefined,
    readonly requestId: string | undefined,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(describeApiError(status, apiMessage, requestId, retryAfterSeconds), EXIT.api);
    this.name = 'ApiError';
  }
}

function describeApiError(status: number, message: string, requestId?: string, retryAfter?: number): string {
  const id = requestId ? ` (request id ${requestId})` : '';
  const wait = retryAfter !== undefined ? `; try again in ${retryAfter} s` : status === 429 || status === 503 ? '; try again later' : '';
  return `${message}${id}${wait}`;
}

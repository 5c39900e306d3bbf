/**
 * Telling "the database cannot be reached right now" apart from every other failure: the first is an outage the
 * caller may retry (503), the second a bug (500).
 */

// Socket-level failures node reports while connecting to or talking with PostgreSQL.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// SQLSTATEs of a server going away or refusing connections: class 08 (connection exception), the server shutting
// down or starting (57P01-57P03, "terminating connection due to administrator command / unexpected postmaster
// exit"), and too many connections.
const SERVER_GONE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
// node-postgres says these in words only (no code).
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/** True when `error`, or anything along its cause chain (Drizzle wraps the driver's error), says the database is out of reach. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_GONE.test(code))) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((text) => message.includes(text))) return true;
    // An AggregateError (a host with several addresses, all refused) holds the real errors in `errors`.
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.some((each) => isDatabaseUnavailable(each))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client is asked to wait before retrying while the database is out of reach. */
export const RETRY_AFTER_SECONDS = 5;

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES, type ErrorCode } from '@kumo/contract';
import { AppError } from '../errors.js';
import { RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.js';

// Fastify's own request errors, mapped to the contract's codes and messages.
const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: MESSAGES.malformedJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: MESSAGES.malformedJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'BODY_TOO_LARGE', message: MESSAGES.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: MESSAGES.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'MALFORMED_JSON', message: MESSAGES.malformedJson },
  FST_ERR_BAD_URL: { status: 400, code: 'VALIDATION_FAILED', message: MESSAGES.badRequest },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'URI_TOO_LONG', message: MESSAGES.uriTooLong },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: 'VALIDATION_FAILED', message: MESSAGES.badRequest },
};

const RATE_WINDOW_SECONDS = 60;

// PostgreSQL's class 22 (data exception: bad text encoding, NUL, out-of-range number, too long value, bad
// uuid...) means the request carried a value the database cannot hold: the caller's mistake, not ours.
const DATA_EXCEPTION = /^22[0-9A-Z]{3}$/;

/** The SQLSTATE of a database error, looked for along the cause chain (Drizzle wraps the driver's error). */
export function sqlStateOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isDataException = (error: unknown) => DATA_EXCEPTION.test(sqlStateOf(error) ?? '');

function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
  const status = known?.status ?? 400;
  request.log.info({ err: error }, 'request refused');
  return reply
    .status(status)
    .send(new AppError(status, known?.code ?? 'VALIDATION_FAILED', known?.message ?? MESSAGES.badRequest).toResponse());
}

/**
 * Fastify options for the answers it gives before any route runs (a bad or over-long URL), and for the
 * ones node's HTTP parser gives on a bare socket (431 headers too large, 400 unreadable request).
 */
export const frameworkErrorOptions = {
  frameworkErrors: sendFrameworkError,
  clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
    // A reset connection has nobody left to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, code, message]: [number, ErrorCode, string] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', MESSAGES.headersTooLarge]
        : error.code === 'HPE_URI_TOO_LONG'
          ? [414, 'URI_TOO_LONG', MESSAGES.uriTooLong]
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'VALIDATION_FAILED', MESSAGES.badRequest]
            : [400, 'VALIDATION_FAILED', MESSAGES.badRequest];
    const body = JSON.stringify(new AppError(status, code, message).toResponse());
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  },
};

/** One error model: every failure leaves as {errorDetails, field_errors?}; internals never leak. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // A dependency that is down: the caller may try again shortly.
      if (error.statusCode === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      // A limit that did not say when it lifts: the contract's limits are counted by the minute.
      if (error.statusCode === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RATE_WINDOW_SECONDS));
      return reply.status(error.statusCode).send(error.toResponse());
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
        fieldErrors[field] ??= issue.message ?? MESSAGES.validationFailed;
      }
      const first = Object.values(fieldErrors)[0] ?? MESSAGES.validationFailed;
      return reply.status(400).send(new AppError(400, 'VALIDATION_FAILED', first, fieldErrors).toResponse());
    }

    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return reply.status(known.status).send(new AppError(known.status, known.code, known.message).toResponse());

    if (isDataException(error)) {
      request.log.info({ err: error, sqlState: sqlStateOf(error) }, 'database refused a value of the request');
      return reply.status(400).send(new AppError(400, 'VALIDATION_FAILED', MESSAGES.invalidInputValue).toResponse());
    }

    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'request refused');
      return reply
        .status(error.statusCode)
        .send(new AppError(error.statusCode, 'VALIDATION_FAILED', MESSAGES.validationFailed).toResponse());
    }

    // An outage, not a bug: the caller may try again shortly, and the log says so once per request, as a warning.
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unreachable');
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send(new AppError(503, 'SERVICE_UNAVAILABLE', MESSAGES.serviceUnavailable).toResponse());
    }

    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(new AppError(500, 'INTERNAL_ERROR', MESSAGES.internal).toResponse());
  });
}

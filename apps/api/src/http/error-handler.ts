import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES, type ErrorCode } from '@kumo/contract';
import { AppError } from '../errors.js';

// Fastify's own request errors, mapped to the contract's codes and messages.
const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: MESSAGES.malformedJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: MESSAGES.malformedJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'BODY_TOO_LARGE', message: MESSAGES.bodyTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: MESSAGES.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'MALFORMED_JSON', message: MESSAGES.malformedJson },
};

/** One error model: every failure leaves as {errorDetails, field_errors?}; internals never leak. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return reply.status(error.statusCode).send(error.toResponse());

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

    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'request refused');
      return reply
        .status(error.statusCode)
        .send(new AppError(error.statusCode, 'VALIDATION_FAILED', MESSAGES.validationFailed).toResponse());
    }

    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(new AppError(500, 'INTERNAL_ERROR', MESSAGES.internal).toResponse());
  });
}

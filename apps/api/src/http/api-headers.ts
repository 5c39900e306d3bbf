import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_VERSIONS, CURRENT_API_VERSION, HEADERS, MESSAGES } from '@kumo/contract';
import { badRequest } from '../errors.js';

/** The dated version a call asked for with Kumo-Version, or the current one; an unknown date is refused. */
function versionOf(request: FastifyRequest): string {
  const asked = request.headers[HEADERS.apiVersion];
  if (asked === undefined) return CURRENT_API_VERSION;
  if (typeof asked === 'string' && (API_VERSIONS as readonly string[]).includes(asked.trim())) return asked.trim();
  throw badRequest('VALIDATION_FAILED', MESSAGES.unknownApiVersion, { [HEADERS.apiVersion]: MESSAGES.unknownApiVersion });
}

/**
 * The headers every answer carries: the correlation id under both its names (Request-Id is what integrators look
 * for) and the API version it was made by. An error body names the request id too, so a support request can quote it.
 */
export function registerApiHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    reply.header(HEADERS.correlationId, request.id);
    reply.header(HEADERS.requestId, request.id);
    // A refused version is answered by the current one.
    let version: string = CURRENT_API_VERSION;
    let refused: Error | undefined;
    try {
      version = versionOf(request);
    } catch (error) {
      refused = error as Error;
    }
    reply.header(HEADERS.apiVersion, version);
    done(refused);
  });
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || !isErrorBody(payload)) return payload;
    return { ...payload, errorDetails: { ...payload.errorDetails, request_id: request.id } };
  });
}

function isErrorBody(payload: unknown): payload is { errorDetails: Record<string, unknown> } {
  if (typeof payload !== 'object' || payload === null) return false;
  const details = (payload as { errorDetails?: unknown }).errorDetails;
  return typeof details === 'object' && details !== null;
}

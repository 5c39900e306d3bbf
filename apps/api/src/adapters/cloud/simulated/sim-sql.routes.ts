/**
 * The simulated clusters' SQL endpoints: POST /sim/kumo/{stack}/sql, the contract of docs/clusters.md ("The SQL
 * endpoint") served by the portal for its simulated cloud. HTTP Basic auth with the cluster's user and password;
 * every query and every refused attempt goes into the cluster's history through the hooks the wiring hands in.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { CLUSTER_SQL_LIMITS, CLUSTER_SQL_MESSAGES, MESSAGES, sqlEndpointRequestSchema, type ErrorCode } from '@kumo/contract';
import type { Clock } from '../../../clock.js';
import { AppError } from '../../../errors.js';
import { SqlRefusal, toSqlWire, type EndpointQueryRecord, type SqlEndpointHooks } from '../sql-port.js';
import { SIM_PAGES_PREFIX, type SimulatedProvisioner } from './simulated-provisioner.js';

const params = z.object({ stackName: z.string().regex(/^kumo-[0-9a-f-]{36}$/) });

/** Room for a query a little over the limit, so it is refused with the contract's 413 rather than the body limit. */
export const SQL_BODY_LIMIT = 4 * CLUSTER_SQL_LIMITS.maxQueryBytes;

/** The user and password of an HTTP Basic authorization header. */
export function basicCredential(header: string | undefined): { user: string; password: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function simSqlRoutes(deps: { cloud: SimulatedProvisioner; hooks: SqlEndpointHooks; clock: Clock }) {
  const { cloud, hooks, clock } = deps;

  async function serve(request: FastifyRequest, reply: FastifyReply) {
    const parsed = params.safeParse(request.params);
    const info = parsed.success ? await cloud.stackInfo(parsed.data.stackName) : undefined;
    if (!parsed.success || !info || info.description.stackStatus === 'DELETE_COMPLETE') {
      return reply.status(404).send(new AppError(404, 'NOT_FOUND', MESSAGES.notFound).toResponse());
    }
    const stackName = parsed.data.stackName;
    const deploymentId = stackName.slice('kumo-'.length);
    const startedAt = clock.now();
    const started = performance.now();
    const credential = basicCredential(request.headers.authorization);
    const body = sqlEndpointRequestSchema.safeParse(request.body);
    const text =
      typeof (request.body as { query?: unknown } | undefined)?.query === 'string' ? (request.body as { query: string }).query : '';
    const entry = (status: EndpointQueryRecord['status'], rest: Pick<EndpointQueryRecord, 'rowCount' | 'error'>): EndpointQueryRecord => ({
      deploymentId,
      startedAt,
      durationMs: Math.round(performance.now() - started),
      status,
      userLabel: credential?.user || 'anonymous',
      clientAddress: request.ip ?? null,
      userAgent: request.headers['user-agent']?.slice(0, 300) ?? null,
      query: text.slice(0, CLUSTER_SQL_LIMITS.historyQueryChars),
      ...rest,
    });
    const refuse = async (status: number, code: ErrorCode, message: string, recorded: EndpointQueryRecord['status'] | null) => {
      if (recorded) await hooks.record(entry(recorded, { rowCount: null, error: message }));
      if (status === 401) reply.header('www-authenticate', 'Basic realm="kumo", charset="UTF-8"');
      return reply.status(status).send(new AppError(status, code, message).toResponse());
    };

    // Who knocked is kept even when they are turned away: an address not on the list, then a wrong password.
    if (!(await hooks.allowsAddress(deploymentId, request.ip))) {
      return refuse(403, 'NETWORK_ACCESS_DENIED', CLUSTER_SQL_MESSAGES.networkAccessDenied, 'REFUSED');
    }
    if (!credential) return refuse(401, 'CREDENTIALS_INVALID', CLUSTER_SQL_MESSAGES.credentialsInvalid, 'REFUSED');
    if (!body.success) return refuse(400, 'VALIDATION_FAILED', body.error.issues[0]?.message ?? MESSAGES.validationFailed, null);
    try {
      const answer = await cloud.sql.query(stackName, credential, { query: body.data.query, maxRows: body.data.max_rows });
      await hooks.record(entry('OK', { rowCount: answer.rowCount, error: null }));
      return reply.status(200).send(toSqlWire(answer));
    } catch (error) {
      if (!(error instanceof SqlRefusal)) throw error;
      const refused = error.statusCode === 401 || error.statusCode === 409;
      return refuse(error.statusCode, error.code, error.message, refused ? 'REFUSED' : 'FAILED');
    }
  }

  return async function register(app: FastifyInstance): Promise<void> {
    app.post(`${SIM_PAGES_PREFIX}/:stackName/sql`, { schema: { hide: true }, bodyLimit: SQL_BODY_LIMIT }, serve);
  };
}

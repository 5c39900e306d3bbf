/**
 * The AWS driver's SQL endpoints: the contract of docs/clusters.md ("The SQL endpoint"), which the Kumo AMI serves at
 * the cluster's own address, called over HTTPS with HTTP Basic auth. The endpoint's refusals come back as SqlRefusal
 * with its code and message. A cluster that does not answer (connection refused, no answer within the contract's 60 s
 * and a margin, a 5xx, an answer off the contract) is the portal's 503 SQL_ENDPOINT_UNAVAILABLE, which leaves with
 * Retry-After: the caller may try again shortly.
 */
import { z } from 'zod';
import {
  CLUSTER_QUERY_STATUSES,
  CLUSTER_SQL_LIMITS,
  CLUSTER_SQL_MESSAGES,
  ERROR_CODES,
  sqlResultSchema,
  type ErrorCode,
} from '@kumo/contract';
import { SqlRefusal, type ClusterSqlPort, type EndpointActivityPage, type SqlCredential } from '../sql-port.js';

export interface AwsSqlClientOptions {
  /** The cluster's Web Portal address (the stack's output), null while the stack has none. */
  portalUrlOf(stackName: string, region: string | undefined): Promise<string | null>;
  /** How long a query may take to answer: the contract's 60 s and a margin for the network. */
  queryTimeoutMs?: number;
  /** How long a password change or an activity read may take. */
  requestTimeoutMs?: number;
}

/** The endpoint is a path of the cluster's own address, beside the Web Portal and Kumo Manager. */
export const sqlEndpointAt = (portalUrl: string) => new URL('sql', portalUrl).href;

const DEFAULT_QUERY_TIMEOUT_MS = CLUSTER_SQL_LIMITS.timeoutMs + 15_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

const unavailable = () => new SqlRefusal(503, 'SQL_ENDPOINT_UNAVAILABLE', CLUSTER_SQL_MESSAGES.engineUnavailable);

const refusalSchema = z.object({ errorDetails: z.object({ error_code: z.string(), error_message: z.string() }) });

const activitySchema = z.object({
  records: z.array(
    z.object({
      id: z.string().min(1),
      started_at: z.iso.datetime({ offset: true }),
      duration_ms: z.number().int().nonnegative(),
      row_count: z.number().int().nullable(),
      status: z.enum(CLUSTER_QUERY_STATUSES),
      user: z.string(),
      client_address: z.string().nullable(),
      user_agent: z.string().nullable(),
      query: z.string(),
      error: z.string().nullable(),
    }),
  ),
  next_cursor: z.string().nullable(),
  has_more: z.boolean(),
});

const isErrorCode = (code: string): code is ErrorCode => (ERROR_CODES as readonly string[]).includes(code);

/** What a status without the contract's body means (a proxy's or a server's own answer). */
function bareRefusal(status: number): SqlRefusal {
  if (status === 401) return new SqlRefusal(401, 'CREDENTIALS_INVALID', CLUSTER_SQL_MESSAGES.credentialsInvalid);
  if (status === 413) return new SqlRefusal(413, 'QUERY_TOO_LARGE', CLUSTER_SQL_MESSAGES.queryTooLarge);
  return unavailable();
}

const authorization = ({ user, password }: SqlCredential) => `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;

/** One call to an endpoint: the answer's body on success; a SqlRefusal for a refusal or when nobody answers. */
async function call(url: string, credential: SqlCredential, timeoutMs: number, init: { method: string; body?: unknown }): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: {
        authorization: authorization(credential),
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch {
    // Refused, reset, unresolved, or no answer in time: the cluster is out of reach for now.
    throw unavailable();
  }
  if (response.status >= 500) throw unavailable();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    throw response.ok ? unavailable() : bareRefusal(response.status);
  }
  if (response.ok) return body;
  const refusal = refusalSchema.safeParse(body);
  if (!refusal.success || !isErrorCode(refusal.data.errorDetails.error_code)) throw bareRefusal(response.status);
  throw new SqlRefusal(response.status, refusal.data.errorDetails.error_code, refusal.data.errorDetails.error_message);
}

export function createAwsSqlClient(options: AwsSqlClientOptions): ClusterSqlPort {
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  // A cluster's address is its Elastic IP, kept across stop and start: read from the stack once.
  const endpoints = new Map<string, string>();

  async function endpointOf(stackName: string, region: string | undefined): Promise<string> {
    const known = endpoints.get(stackName);
    if (known) return known;
    let portalUrl: string | null;
    try {
      portalUrl = await options.portalUrlOf(stackName, region);
    } catch {
      throw unavailable();
    }
    if (!portalUrl) throw unavailable();
    const endpoint = sqlEndpointAt(portalUrl);
    endpoints.set(stackName, endpoint);
    return endpoint;
  }

  return {
    endpointFor: (_stackName, portalUrl) => (portalUrl ? sqlEndpointAt(portalUrl) : null),

    async query(stackName, credential, query, region) {
      const url = await endpointOf(stackName, region);
      const body = await call(url, credential, queryTimeoutMs, { method: 'POST', body: { query: query.query, max_rows: query.maxRows } });
      const answer = sqlResultSchema.safeParse(body);
      if (!answer.success) throw unavailable();
      const { columns, rows, row_count, truncated, elapsed_ms } = answer.data;
      return { columns, rows, rowCount: row_count, truncated, elapsedMs: elapsed_ms };
    },

    async setPassword(stackName, user, portal, region) {
      const url = `${await endpointOf(stackName, region)}/users/${encodeURIComponent(user.user)}/password`;
      await call(url, portal, requestTimeoutMs, { method: 'PUT', body: { password: user.password } });
    },

    async activity(stackName, portal, cursor, region): Promise<EndpointActivityPage> {
      const url = new URL(`${await endpointOf(stackName, region)}/activity`);
      if (cursor !== null) url.searchParams.set('after', cursor);
      const page = activitySchema.safeParse(await call(url.href, portal, requestTimeoutMs, { method: 'GET' }));
      if (!page.success) throw unavailable();
      const deploymentId = stackName.slice('kumo-'.length);
      return {
        records: page.data.records.map((record) => ({
          deploymentId,
          recordId: record.id,
          startedAt: new Date(record.started_at),
          durationMs: record.duration_ms,
          rowCount: record.row_count,
          status: record.status,
          userLabel: record.user || 'anonymous',
          clientAddress: record.client_address,
          userAgent: record.user_agent?.slice(0, 300) ?? null,
          query: record.query.slice(0, CLUSTER_SQL_LIMITS.historyQueryChars),
          error: record.error,
        })),
        cursor: page.data.next_cursor,
        more: page.data.has_more,
      };
    },
  };
}

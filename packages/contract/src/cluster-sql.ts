import { z } from 'zod';
import { clusterPasswordSchema } from './cluster-create.js';
import { pageQuerySchema } from './paging.js';

// ---------------------------------------------------------------------------------------------
// A cluster's SQL: its endpoint's contract, the portal's query console and the query history
// ---------------------------------------------------------------------------------------------

export const CLUSTER_SQL_LIMITS = {
  /** A query's text, in UTF-8 bytes: a longer one is refused with 413. */
  maxQueryBytes: 100 * 1024,
  /** Rows an answer holds unless max_rows says fewer: the rest is cut and `truncated` says so. */
  defaultMaxRows: 1000,
  maxRows: 10_000,
  /** A query running longer is cancelled (QUERY_TIMEOUT). */
  timeoutMs: 60_000,
  /** Characters of a query the history keeps. */
  historyQueryChars: 1000,
  historyPageSize: 20,
} as const;

/** The user of a cluster's SQL endpoint, whose password the customer chose at creation. */
export const CLUSTER_SQL_USER = 'kumo_admin';

export const CLUSTER_SQL_MESSAGES = {
  queryRequired: 'Enter a query.',
  queryTooLarge: `A query may be at most ${CLUSTER_SQL_LIMITS.maxQueryBytes / 1024} KB.`,
  credentialsInvalid: 'The user name or password is not valid for this cluster.',
  networkAccessDenied: "Your address is not on the cluster's network access list.",
  notOnline: 'The cluster is not online: start it to run queries.',
  timeout: `The query ran longer than ${CLUSTER_SQL_LIMITS.timeoutMs / 1000} seconds and was cancelled.`,
  statementRefused: 'This statement reaches outside the cluster (files, extensions, other databases or settings) and is not allowed.',
  engineUnavailable: "The cluster's SQL endpoint could not be reached.",
  passwordReset: 'The cluster password was changed.',
} as const;

/** What a cluster's SQL endpoint takes (POST {sql_endpoint}, HTTP Basic auth). */
export const sqlEndpointRequestSchema = z.object({
  query: z.string({ error: CLUSTER_SQL_MESSAGES.queryRequired }).trim().min(1, CLUSTER_SQL_MESSAGES.queryRequired),
  max_rows: z.number().int().min(1).max(CLUSTER_SQL_LIMITS.maxRows).optional().default(CLUSTER_SQL_LIMITS.defaultMaxRows),
});
export type SqlEndpointRequest = z.input<typeof sqlEndpointRequestSchema>;

/** A cell as JSON carries it: large numbers, decimals and times come as text, lists and structs as JSON. */
const cellSchema = z.unknown();

export const sqlResultSchema = z
  .object({
    columns: z.array(z.object({ name: z.string(), type: z.string() })),
    rows: z.array(z.array(cellSchema)),
    row_count: z.number().int(),
    truncated: z.boolean(),
    elapsed_ms: z.number().int(),
  })
  .meta({ id: 'SqlResult' });
export type SqlResult = z.infer<typeof sqlResultSchema>;

/** The console's query: the portal runs it with its own credential for the cluster, in the person's name. */
export const clusterQueryRequestSchema = z
  .object({
    query: z.string({ error: CLUSTER_SQL_MESSAGES.queryRequired }).trim().min(1, CLUSTER_SQL_MESSAGES.queryRequired),
  })
  .meta({ id: 'ClusterQueryRequest' });
export type ClusterQueryRequest = z.infer<typeof clusterQueryRequestSchema>;

export const CLUSTER_QUERY_STATUSES = ['OK', 'FAILED', 'REFUSED'] as const;
export type ClusterQueryStatus = (typeof CLUSTER_QUERY_STATUSES)[number];
export const CLUSTER_QUERY_SOURCES = ['CONSOLE', 'ENDPOINT'] as const;
export type ClusterQuerySource = (typeof CLUSTER_QUERY_SOURCES)[number];

export const clusterQueriesQuerySchema = pageQuerySchema(CLUSTER_SQL_LIMITS.historyPageSize);

export const clusterQueryEntrySchema = z
  .object({
    query_id: z.uuid(),
    started_at: z.iso.datetime(),
    duration_ms: z.number().int(),
    row_count: z.number().int().nullable(),
    status: z.enum(CLUSTER_QUERY_STATUSES),
    source: z.enum(CLUSTER_QUERY_SOURCES),
    user: z.string(),
    client_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    /** The first 1,000 characters. */
    query: z.string(),
    error: z.string().nullable(),
  })
  .meta({ id: 'ClusterQueryEntry' });
export type ClusterQueryEntry = z.infer<typeof clusterQueryEntrySchema>;

export const clusterQueriesResponseSchema = z
  .object({ content: z.array(clusterQueryEntrySchema), totalPages: z.number().int() })
  .meta({ id: 'ClusterQueries' });
export type ClusterQueriesResponse = z.infer<typeof clusterQueriesResponseSchema>;

/** A new cluster password, by the create form's rules. */
export const resetClusterPasswordRequestSchema = z.object({ password: clusterPasswordSchema }).meta({ id: 'ResetClusterPasswordRequest' });
export type ResetClusterPasswordRequest = z.infer<typeof resetClusterPasswordRequestSchema>;
export const resetClusterPasswordResponseSchema = z
  .object({ deployment_id: z.uuid(), message: z.string() })
  .meta({ id: 'ResetClusterPasswordResponse' });
export type ResetClusterPasswordResponse = z.infer<typeof resetClusterPasswordResponseSchema>;

/**
 * A cluster's SQL endpoint as the portal reaches it: the contract every cluster's engine serves (docs/clusters.md,
 * "The SQL endpoint"). The simulated cloud runs the engine in the portal (DuckDB, simulated/sim-sql-*.ts); on AWS the
 * Kumo AMI serves it at the cluster's own address and the driver calls it over HTTPS (aws/aws-sql-client.ts).
 */
import type { ErrorCode } from '@kumo/contract';

/** The user the portal runs console queries as: its own credential per cluster, given to the cloud at creation. */
export const PORTAL_SQL_USER = 'kumo_portal';

export interface SqlCredential {
  user: string;
  password: string;
}

export interface SqlQuery {
  query: string;
  maxRows: number;
}

/** An engine's answer, as the endpoint writes it. */
export interface SqlAnswer {
  columns: { name: string; type: string }[];
  rows: unknown[][];
  rowCount: number;
  truncated: boolean;
  elapsedMs: number;
}

/** The endpoint's refusal of a query, in the contract's words (its status, code and message). */
export class SqlRefusal extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SqlRefusal';
  }
}

export interface ClusterSqlPort {
  /** Where the cluster's SQL endpoint answers: null while it has no address yet (AWS before the cluster is up). */
  endpointFor(stackName: string, portalUrl: string | null): string | null;
  /** Runs a query as `credential`; throws a SqlRefusal for every refusal the contract lists. */
  query(stackName: string, credential: SqlCredential, query: SqlQuery, region?: string): Promise<SqlAnswer>;
  /**
   * Sets the password of one of the endpoint's users (the customer's after a reset, the portal's own when a cluster
   * made before there was one needs it). `portal` is the portal's credential, which the AWS engine asks for.
   */
  setPassword(stackName: string, user: SqlCredential, portal: SqlCredential, region?: string): Promise<void>;
  /**
   * What reached the endpoint after `cursor` (from the oldest it keeps when null), oldest first, read with the portal's
   * credential. Only an engine the portal does not serve itself has it (AWS): the simulated endpoint records straight
   * into the history.
   */
  activity?(stackName: string, portal: SqlCredential, cursor: string | null, region?: string): Promise<EndpointActivityPage>;
}

/** A page of an endpoint's own record of what reached it; `cursor` reads on after it, `more` says there is more now. */
export interface EndpointActivityPage {
  records: EndpointQueryRecord[];
  cursor: string | null;
  more: boolean;
}

/** One query through a cluster's endpoint, or one refused attempt, as the cluster's history keeps it. */
export interface EndpointQueryRecord {
  deploymentId: string;
  startedAt: Date;
  durationMs: number;
  rowCount: number | null;
  status: 'OK' | 'FAILED' | 'REFUSED';
  /** The user the request named (or 'anonymous' without one). */
  userLabel: string;
  clientAddress: string | null;
  userAgent: string | null;
  query: string;
  error: string | null;
  /** The endpoint's own id of the record (AWS), which makes recording it twice record it once. */
  recordId?: string;
}

/** What the endpoint asks of the portal: the cluster's network access list, and where its history goes. */
export interface SqlEndpointHooks {
  allowsAddress(deploymentId: string, address: string): Promise<boolean>;
  record(entry: EndpointQueryRecord): Promise<void>;
}

/** The endpoint's answer on the wire (snake_case, as docs/clusters.md writes it). */
export const toSqlWire = (answer: SqlAnswer) => ({
  columns: answer.columns,
  rows: answer.rows,
  row_count: answer.rowCount,
  truncated: answer.truncated,
  elapsed_ms: answer.elapsedMs,
});

/** The pieces of the OpenAPI document that every operation shares, and the tidying its schemas get (openapi-document.ts). */
/** A node of the document: read loosely, since the document is plain JSON built by several hands. */
export type Json = { [key: string]: unknown };
const node = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});

export const STATUS_DESCRIPTIONS: Record<number, string> = {
  200: 'Done: the answer below.',
  201: 'Created.',
  204: 'Done; no body.',
  302: 'Redirected: follow the Location header.',
  400: 'The request is not valid: `field_errors` names each field at fault.',
  401: 'No valid access token or personal token.',
  403: 'Not allowed this: role, token scope or address, customer view, or a call that changes state without its XSRF token or marked cross-site by the browser.',
  404: "Not found, or not the caller's to see.",
  409: 'In conflict with the current state, or an Idempotency-Key already used with another request.',
  413: 'The request body is larger than the limit.',
  414: 'The request address is too long.',
  415: 'The request body is not JSON.',
  422: 'Understood, but refused by a rule of the service (the message says which).',
  429: 'Too many requests: try again after Retry-After seconds.',
  500: 'An error of the server; the Request-Id header names it.',
  502: 'The upstream service answered with an error.',
  503: 'A service the portal needs is out of reach: try again after Retry-After seconds.',
};

const ERROR_BODY = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };
const RETRY_AFTER = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };
const RATE_LIMIT = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/RateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
};

/** Adds the statuses every such call can answer, and gives each response its description and headers. */
export function describeResponses(responses: Json, statuses: number[], everyAnswer: Json): void {
  for (const status of statuses) responses[String(status)] ??= { content: ERROR_BODY };
  for (const [status, value] of Object.entries(responses)) {
    const response = node(value);
    if (!response.description || response.description === 'Default Response') {
      response.description = STATUS_DESCRIPTIONS[Number(status)] ?? 'See the message.';
    }
    const waits = status === '429' || status === '503' ? RETRY_AFTER : {};
    const limits = status === '429' ? RATE_LIMIT : {};
    response.headers = { ...node(response.headers), ...everyAnswer, ...waits, ...limits };
  }
}

const CSV = { 'text/csv': { schema: { type: 'string' }, example: 'date,cluster,service,quantity,unit,amount\n' } };
const PDF = { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } };
/** The JSON form of an export (format=json): an object whose rows are listed in it. */
const JSON_OBJECT = { 'application/json': { schema: { type: 'object' } } };
const STATEMENT_JSON = { 'application/json': { schema: { $ref: '#/components/schemas/Statement' } } };

/** The answers that are not the route's one JSON schema: exports as CSV (or JSON), receipts and statements as PDF. */
export const MEDIA_TYPES: Record<string, Json> = {
  'get /api/credit/subscription/{id}': PDF,
  'get /api/admin/download-transaction-receipt/{transactionId}': PDF,
  'get /api/admin/download-cluster-template/{deploymentId}': {
    'application/json': {
      schema: { type: 'object', description: "The cluster's CloudFormation template, as deployed." },
      example: { AWSTemplateFormatVersion: '2010-09-09', Description: 'Kumo cluster Sales-Analytics', Resources: {} },
    },
  },
  'get /api/subscription/statement/{subscriptionId}': { ...STATEMENT_JSON, ...PDF },
  'get /api/account/audit-logs/export': { ...CSV, ...JSON_OBJECT },
  'get /api/subscription/consumption/export/{subscriptionId}': { ...CSV, ...JSON_OBJECT },
  'get /api/cluster/consumption/export/{deploymentId}': CSV,
  'get /api/credit/export/credit-transactions/{subscriptionId}': CSV,
  'get /api/cluster/export/audit-logs/{deploymentId}': CSV,
};

export { node };

/** Schemas as strict validators and linters read them: no lone allOf, and every required name declared. */
export function tidySchemas(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(tidySchemas);
  if (!value || typeof value !== 'object') return;
  const schema = value as Json;
  for (const value of Object.values(schema)) tidySchemas(value);
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) {
    const only = node(schema.allOf[0]);
    delete schema.allOf;
    Object.assign(schema, { ...only, ...schema });
  }
  // A record keyed by an enum lists its keys as required but declares them only through propertyNames.
  if (Array.isArray(schema.required) && schema.type === 'object') {
    const properties = node((schema.properties ??= {}));
    for (const name of schema.required as string[]) properties[name] ??= schema.additionalProperties ?? {};
  }
}

/** Drops component schemas nothing refers to (zod's input twins of output-only schemas). */
export function pruneUnusedSchemas(document: Json): void {
  const schemas = node(node(document.components).schemas);
  const used = new Set<string>();
  const visit = (current: unknown): void => {
    if (Array.isArray(current)) return current.forEach(visit);
    if (!current || typeof current !== 'object') return;
    for (const [key, value] of Object.entries(current)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit({ paths: document.paths, webhooks: document.webhooks, rest: { ...node(document.components), schemas: undefined } });
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}

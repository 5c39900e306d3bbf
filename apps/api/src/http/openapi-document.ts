/**
 * What the OpenAPI document says beyond each route's own schemas, written once for every operation: stable operation
 * ids, a description for every status, the statuses every call can answer (429 and 503 with Retry-After, 413 and 415
 * for a write, 403 for a call that changes state, 409 for an Idempotency-Key, 414 for a path parameter), the headers
 * every answer carries, the two security schemes, Idempotency-Key where a route takes it, the real media types of the
 * exports, and an example of every JSON body and 2xx answer (openapi-examples.ts). Decision 0044 says why it is done
 * here.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import { API_VERSIONS, CURRENT_API_VERSION } from '@kumo/contract';
import { addExamples } from './openapi-examples.js';
import { webhookDocument } from './openapi-webhooks.js';
import { MEDIA_TYPES, STATUS_DESCRIPTIONS, describeResponses, node, pruneUnusedSchemas, tidySchemas, type Json } from './openapi-parts.js';

interface RouteMarks {
  /** A personal API token is refused: the session's scheme only. */
  personOnly: boolean;
  idempotent: boolean;
}

const SESSION_ONLY = [{ session: [] }];
const SESSION_OR_TOKEN = [{ session: [] }, { personalToken: [] }];
const REFERENCED_HEADERS = {
  'Request-Id': { $ref: '#/components/headers/RequestId' },
  'Kumo-Version': { $ref: '#/components/headers/KumoVersion' },
};

const COMPONENTS = {
  securitySchemes: {
    session: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        "The console's sign-in: the access token from the `jwt_token` header of POST /api/user/authenticate (15 minutes; " +
        'renewed with POST /api/user/refresh-token). Every call that changes state (any method but GET, HEAD and OPTIONS, ' +
        'and the GETs marked `x-changes-state`) must also send the `XSRF-TOKEN` cookie issued with the token and the same ' +
        'value in the `X-XSRF-TOKEN` header; a request the browser marks cross-site is refused.',
    },
    personalToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'kumo_pat_…',
      description:
        'A personal API token (`kumo_pat_` and an opaque secret, not a JWT) made under Account → API tokens. No XSRF token. ' +
        'A READ token may only read; at most the documented calls a minute, with X-RateLimit-Limit, X-RateLimit-Remaining ' +
        'and X-RateLimit-Reset on every answer.',
    },
  },
  headers: {
    RequestId: { description: 'The id of this call (also X-Correlation-ID): name it in a support request.', schema: { type: 'string' } },
    KumoVersion: { description: 'The dated API version that made this answer.', schema: { type: 'string', enum: [...API_VERSIONS] } },
    RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } },
    RateLimitLimit: { description: 'Calls allowed in the window (personal tokens and sign-in routes).', schema: { type: 'integer' } },
    RateLimitRemaining: { description: 'Calls left in the window.', schema: { type: 'integer' } },
    RateLimitReset: { description: 'Seconds until the window starts again.', schema: { type: 'integer' } },
  },
  parameters: {
    KumoVersion: {
      name: 'Kumo-Version',
      in: 'header',
      required: false,
      description: `The dated API version to use; ${CURRENT_API_VERSION} when left out. An unknown one is refused with 400.`,
      schema: { type: 'string', enum: [...API_VERSIONS] },
    },
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Up to 255 printable characters. The same key with the same request within 24 hours answers the first answer again ' +
        '(with `Idempotent-Replayed: true`) without doing anything twice; with another request, 409 IDEMPOTENCY_KEY_REUSED. ' +
        "Keys are the caller's account's.",
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  },
};

const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** A stable id from the method and the path: `post /api/cluster/create` is postClusterCreate, a parameter reads ByName. */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `by-${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return [method.toLowerCase(), ...words].map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('');
}

/** Records each route's marks as it is declared; `finish` then writes the document's common parts from them. */
export function openapiDocument(app: FastifyInstance) {
  const marks = new Map<string, RouteMarks>();
  app.addHook('onRoute', (route: RouteOptions) => {
    const guardedAsStaff = (route.schema as { tags?: string[] } | undefined)?.tags?.includes('Admin') ?? false;
    for (const method of [route.method].flat()) {
      marks.set(`${method.toLowerCase()} ${openapiPath(route.url)}`, {
        personOnly: !!route.config?.personOnly || guardedAsStaff,
        idempotent: !!route.config?.idempotent,
      });
    }
  });

  function finishOperation(method: string, path: string, operation: Json): void {
    const mark = marks.get(`${method} ${path}`);
    operation.operationId ??= operationIdOf(method, path);
    const guarded = Array.isArray(operation.security) && operation.security.length > 0;
    operation.security = guarded ? (mark?.personOnly ? SESSION_ONLY : SESSION_OR_TOKEN) : [];
    const parameters = [...((operation.parameters as unknown[] | undefined) ?? []), { $ref: '#/components/parameters/KumoVersion' }];
    if (mark?.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    operation.parameters = parameters;
    const responses = node(operation.responses);
    const media = MEDIA_TYPES[`${method} ${path}`];
    if (media) responses['200'] = { description: STATUS_DESCRIPTIONS[200], content: media };
    const underApi = path.startsWith('/api/');
    // Any write reads a body when one is sent (too large: 413, not JSON: 415), even one that documents none; any call
    // that changes state is refused 403 without its XSRF token or when a browser marks it cross-site; a key used with
    // another request is 409.
    const takesBody = ['post', 'put', 'patch', 'delete'].includes(method);
    const changesState = takesBody || operation['x-changes-state'] === true;
    const statuses = [
      ...(underApi ? [429, 503] : []),
      ...(underApi && takesBody ? [413, 415] : []),
      ...(underApi && changesState ? [403] : []),
      ...(underApi && mark?.idempotent ? [409] : []),
      ...(underApi && path.includes('{') ? [414] : []),
    ];
    describeResponses(responses, statuses, REFERENCED_HEADERS);
  }

  return {
    finish(document: Json): Json {
      document.servers = [{ url: '/', description: 'The portal that serves this document (its own address).' }];
      // The routes' placeholder scheme (bearerAuth) gives way to the two real ones.
      document.components = { ...node(document.components), ...COMPONENTS, schemas: node(node(document.components).schemas) };
      for (const [path, item] of Object.entries(node(document.paths))) {
        for (const [method, operation] of Object.entries(node(item))) finishOperation(method, path, node(operation));
      }
      document.webhooks = webhookDocument();
      tidySchemas(document);
      pruneUnusedSchemas(document);
      addExamples(document);
      return document;
    },
  };
}

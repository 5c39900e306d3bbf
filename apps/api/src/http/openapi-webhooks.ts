/** The events the portal POSTs to a customer's webhook endpoints, one schema per type, for the document's `webhooks`. */
import {
  CLUSTER_SIZE_NAMES,
  CLUSTER_STATUSES,
  QUERY_ENGINE_LIMITS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TEST_EVENT,
  type WebhookEventType,
} from '@kumo/contract';

type Json = Record<string, unknown>;

const uuid = { type: 'string', format: 'uuid' };
const text = { type: 'string' };

/** A cluster's status change, and the deployment's end: what the cluster's audit entry says. */
const CLUSTER_DATA = {
  type: 'object',
  required: ['cluster_id', 'cluster_name', 'subscription_id', 'status', 'message'],
  properties: { cluster_id: uuid, cluster_name: text, subscription_id: uuid, status: { enum: [...CLUSTER_STATUSES] }, message: text },
};
/** A cluster's new shape: once its engines are in place, or as saved for its next start while it is offline. */
const RESIZED_DATA = {
  type: 'object',
  required: [...CLUSTER_DATA.required, 'size', 'query_engines'],
  properties: {
    ...CLUSTER_DATA.properties,
    size: { enum: [...CLUSTER_SIZE_NAMES] },
    query_engines: { type: 'integer', minimum: QUERY_ENGINE_LIMITS.min, maximum: QUERY_ENGINE_LIMITS.max },
  },
};
/** Budgets, runway, top-ups and expiring credits: the notice the account's people also read in the console. */
const NOTICE_DATA = {
  type: 'object',
  required: ['subscription_id', 'title', 'message'],
  properties: { subscription_id: { type: ['string', 'null'], format: 'uuid' }, title: text, message: text },
};
const TEST_DATA = { type: 'object', required: ['webhook_id', 'message'], properties: { webhook_id: uuid, message: text } };

const DATA_OF: Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, Json> = {
  'cluster.status_changed': CLUSTER_DATA,
  'cluster.resized': RESIZED_DATA,
  'deployment.completed': CLUSTER_DATA,
  'deployment.failed': CLUSTER_DATA,
  'budget.threshold_reached': NOTICE_DATA,
  'balance.runway_warning': NOTICE_DATA,
  'top_up.succeeded': NOTICE_DATA,
  'top_up.failed': NOTICE_DATA,
  'credits.expiring': NOTICE_DATA,
  [WEBHOOK_TEST_EVENT]: TEST_DATA,
};

const eventSchema = (type: string, data: Json) => ({
  type: 'object',
  required: ['id', 'type', 'created_at', 'account_id', 'data'],
  properties: { id: uuid, type: { const: type }, created_at: { type: 'string', format: 'date-time' }, account_id: uuid, data },
});

/** OpenAPI 3.1 `webhooks`: one operation per event type, its body that event's schema. */
export function webhookDocument(): Json {
  const types = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
  return Object.fromEntries(
    types.map((type) => [
      type,
      {
        post: {
          operationId: `webhook${type.replace(/(^|[._])([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase())}`,
          summary: `The ${type} event`,
          tags: ['Webhooks'],
          security: [],
          parameters: [
            {
              name: WEBHOOK_SIGNATURE_HEADER,
              in: 'header',
              required: true,
              description: 't=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")> with the endpoint\'s signing secret.',
              schema: { type: 'string' },
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: eventSchema(type, DATA_OF[type]) } } },
          responses: {
            '200': { description: 'Received: any 2xx ends the delivery.' },
            '400': { description: 'Any other answer, or none within the time-out, is tried again with backoff for a day.' },
          },
        },
      },
    ]),
  );
}

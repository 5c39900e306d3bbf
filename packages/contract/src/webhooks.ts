import { z } from 'zod';

/**
 * Webhooks: the account's events sent to an HTTPS endpoint of the customer, each signed with the endpoint's secret
 * (`Kumo-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`), retried with backoff for a day.
 */
export const WEBHOOK_EVENT_TYPES = [
  'cluster.status_changed',
  'cluster.resized',
  'deployment.completed',
  'deployment.failed',
  'budget.threshold_reached',
  'balance.runway_warning',
  'top_up.succeeded',
  'top_up.failed',
  'credits.expiring',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The type of the delivery `POST /api/account/webhooks/{id}/test` sends; it cannot be subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_SIGNATURE_HEADER = 'Kumo-Signature';

export const WEBHOOK_LIMITS = {
  urlMaxLength: 2048,
  /** Endpoints one account may hold. */
  maxPerAccount: 10,
  /** Test events one endpoint may be sent a minute (429 with Retry-After past it). */
  testEventsPerMinute: 5,
  /** Random bytes behind each signing secret (hex after the prefix). */
  secretBytes: 32,
  secretPrefix: 'whsec_',
  /** How long a delivery is retried before it is given up. */
  retryForHours: 24,
  /** The first retry waits this long; each next one twice as long, up to maxRetryDelaySeconds. */
  firstRetryDelaySeconds: 30,
  maxRetryDelaySeconds: 3600,
  /** How long the portal waits for the endpoint's answer. */
  timeoutSeconds: 10,
  /** How many of each endpoint's deliveries the list shows, newest first. */
  listedDeliveries: 10,
  /** How many attempts of each listed delivery are shown, newest first. */
  listedAttempts: 5,
} as const;

export const WEBHOOK_MESSAGES = {
  urlRequired: 'Give the URL the events are sent to.',
  urlInvalid: 'The URL must be a valid https:// address.',
  urlNotHttps: 'The URL must use https://.',
  urlPrivate: 'The URL resolves to a loopback, private or link-local address; events are only sent to public addresses.',
  urlUnresolvable: "The URL's host name could not be resolved.",
  eventsRequired: 'Choose at least one event.',
  eventInvalid: `Each event must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
  tooMany: `This account has ${WEBHOOK_LIMITS.maxPerAccount} webhooks already; delete one first.`,
  notFound: 'Webhook not found.',
  deleted: 'Webhook deleted.',
  testQueued: 'A test event is on its way to the endpoint.',
} as const;

export const createWebhookRequestSchema = z
  .object({
    url: z
      .string({ error: WEBHOOK_MESSAGES.urlRequired })
      .trim()
      .min(1, WEBHOOK_MESSAGES.urlRequired)
      .max(WEBHOOK_LIMITS.urlMaxLength, WEBHOOK_MESSAGES.urlInvalid)
      .refine((text) => URL.canParse(text), WEBHOOK_MESSAGES.urlInvalid)
      .meta({ description: 'Where the events are POSTed: https:// (http:// only where the portal allows private addresses).' }),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: WEBHOOK_MESSAGES.eventInvalid }), { error: WEBHOOK_MESSAGES.eventsRequired })
      .min(1, WEBHOOK_MESSAGES.eventsRequired)
      .transform((events) => [...new Set(events)]),
  })
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookRequest = z.input<typeof createWebhookRequestSchema>;
export type CreateWebhookValues = z.output<typeof createWebhookRequestSchema>;

/** The answer to a creation: the only time the signing secret is shown. */
export const createdWebhookSchema = z
  .object({
    webhook_id: z.uuid(),
    secret: z.string().meta({ description: 'The signing secret, shown this once only.' }),
  })
  .meta({ id: 'CreatedWebhook' });
export type CreatedWebhook = z.infer<typeof createdWebhookSchema>;

export const WEBHOOK_DELIVERY_STATES = ['PENDING', 'DELIVERED', 'FAILED'] as const;

export const webhookAttemptSchema = z
  .object({
    at: z.iso.datetime(),
    /** The endpoint's HTTP status; null when no answer came (refused, timed out, unreachable). */
    status_code: z.number().int().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
  })
  .meta({ id: 'WebhookAttempt' });

export const webhookDeliverySchema = z
  .object({
    event_id: z.uuid(),
    type: z.string(),
    created_at: z.iso.datetime(),
    state: z.enum(WEBHOOK_DELIVERY_STATES),
    /** When the next attempt is due while PENDING; null otherwise. */
    next_attempt_at: z.iso.datetime().nullable(),
    attempts: z.array(webhookAttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookSchema = z
  .object({
    webhook_id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    created_at: z.iso.datetime(),
    deliveries: z.array(webhookDeliverySchema),
  })
  .meta({ id: 'Webhook' });
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListSchema = z.array(webhookSchema).meta({ id: 'Webhooks' });

export const webhookParamsSchema = z.object({ webhookId: z.uuid() });

/** The JSON body of every delivery. */
export interface WebhookEventBody {
  id: string;
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  created_at: string;
  account_id: string;
  data: Record<string, unknown>;
}

/** The answer to a test: the id of the `webhook.test` event on its way. */
export const webhookTestResponseSchema = z.object({ event_id: z.uuid(), message: z.string() }).meta({ id: 'WebhookTestResponse' });
export type WebhookTestResponse = z.infer<typeof webhookTestResponseSchema>;

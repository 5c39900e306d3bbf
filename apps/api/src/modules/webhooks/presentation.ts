/** The webhooks' values in the wire's shapes. */
import type { CreatedWebhook, Webhook } from '@kumo/contract';
import type { WebhookValue } from './webhooks.service.js';

export const toCreatedWebhookWire = (created: { id: string; secret: string }): CreatedWebhook => ({
  webhook_id: created.id,
  secret: created.secret,
});

export function toWebhookWire(value: WebhookValue): Webhook {
  return {
    webhook_id: value.id,
    url: value.url,
    events: value.events,
    created_at: value.createdAt.toISOString(),
    deliveries: value.deliveries.map((delivery) => ({
      event_id: delivery.eventId,
      type: delivery.type,
      created_at: delivery.createdAt.toISOString(),
      state: delivery.state as Webhook['deliveries'][number]['state'],
      next_attempt_at: delivery.state === 'PENDING' && delivery.nextAttemptAt ? delivery.nextAttemptAt.toISOString() : null,
      attempts: delivery.attempts.map((attempt) => ({
        at: attempt.at.toISOString(),
        status_code: attempt.statusCode,
        error: attempt.error,
        duration_ms: attempt.durationMs,
      })),
    })),
  };
}

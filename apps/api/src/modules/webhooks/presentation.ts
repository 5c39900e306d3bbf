/** The webhooks' values in the wire's shapes. */
import type { CreatedWebhook, Webhook } from '@kumo/contract';
import type { WebhookValue } from './webhooks.service.js';

export const toCreatedWebhookWire = (created: { id: string; secret: string }): CreatedWebhook => ({
  webhook_id: created.id,
  secret: created.secret,
});

/**
 * An endpoint's address as a personal API token reads it: its origin only. A path often holds a secret of its own
 * (a chat tool's incoming-webhook address), and a token is not a person.
 */
export function originOnly(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname === '/' && parsed.search === '' ? parsed.origin : `${parsed.origin}/…`;
}

export function toWebhookWire(value: WebhookValue, options: { originOnly?: boolean } = {}): Webhook {
  return {
    webhook_id: value.id,
    url: options.originOnly ? originOnly(value.url) : value.url,
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

import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, type Webhook, type WebhookEventType } from '@kumo/contract';

/** Each event type in words; a new type in the contract fails the build until it has one. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'cluster.status_changed': 'Cluster status changed',
  'cluster.resized': 'Cluster resized',
  'deployment.completed': 'Deployment completed',
  'deployment.failed': 'Deployment failed',
  'budget.threshold_reached': 'Budget threshold reached',
  'balance.runway_warning': 'Balance running out soon',
  'top_up.succeeded': 'Automatic top-up succeeded',
  'top_up.failed': 'Automatic top-up failed',
  'credits.expiring': 'Free credits expiring',
};

export const WEBHOOK_EVENT_OPTIONS = WEBHOOK_EVENT_TYPES.map((type) => ({ type, label: WEBHOOK_EVENT_LABELS[type] }));

/** A delivery's type in words; a type this console does not know yet is shown as sent. */
export function webhookEventLabel(type: string): string {
  if (type === WEBHOOK_TEST_EVENT) return 'Test event';
  return (WEBHOOK_EVENT_LABELS as Record<string, string>)[type] ?? type;
}

type Delivery = Webhook['deliveries'][number];

/** Where a delivery stands, in words and a colour: waiting for its first attempt, retried after a failure, done or given up. */
export function deliveryStatus(delivery: Delivery): { label: string; color: string } {
  if (delivery.state === 'DELIVERED') return { label: 'Delivered', color: 'green' };
  if (delivery.state === 'FAILED') return { label: 'Given up', color: 'red' };
  return delivery.attempts.length === 0 ? { label: 'Sending', color: 'blue' } : { label: 'Retrying', color: 'yellow' };
}

/** What the endpoint answered last: its HTTP status, or why no answer came. */
export function lastAttemptText(delivery: Delivery): string | null {
  const last = delivery.attempts[0];
  if (!last) return null;
  if (last.status_code !== null) return `HTTP ${last.status_code}`;
  return last.error ?? 'No answer';
}

/**
 * The endpoint's signing secret and the signature of each delivery. The secret is shown once and then kept only
 * sealed (the webhook-secrets `Sealer`: AES-256-GCM under a key derived for that alone), since signing needs it in
 * the clear.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_LIMITS } from '@kumo/contract';

export function generateWebhookSecret(): string {
  return `${WEBHOOK_LIMITS.secretPrefix}${randomBytes(WEBHOOK_LIMITS.secretBytes).toString('hex')}`;
}

/** The Kumo-Signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, as Stripe signs. */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

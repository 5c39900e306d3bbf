/**
 * The endpoint's signing secret and the signature of each delivery. The secret is shown once and then kept only
 * sealed (AES-256-GCM under a key derived from the server secret), since signing needs it in the clear.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_LIMITS } from '@kumo/contract';

const keyOf = (serverSecret: string) => createHash('sha256').update(`webhook-secret:${serverSecret}`).digest();

export function generateWebhookSecret(): string {
  return `${WEBHOOK_LIMITS.secretPrefix}${randomBytes(WEBHOOK_LIMITS.secretBytes).toString('hex')}`;
}

export function sealWebhookSecret(serverSecret: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(serverSecret), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function openWebhookSecret(serverSecret: string, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(serverSecret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** The Kumo-Signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, as Stripe signs. */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Keyed hash under the server secret, separated by purpose: OTPs, refresh tokens, invitation tokens and
 * XSRF tokens are stored or compared only in this form.
 */
export function keyedHash(secret: string, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url');
}

/** Compares two hashes in constant time. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

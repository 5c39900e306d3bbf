import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP } from '@kumo/contract';

/** A fresh OTP from the CSPRNG, zero-padded to the OTP length. */
export function generateOtp(): string {
  return String(randomInt(0, 10 ** OTP.length)).padStart(OTP.length, '0');
}

/** Random opaque refresh token: 256 bits, URL-safe. */
export function generateRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Keyed hash: OTPs and refresh tokens are stored only in this form. */
export function keyedHash(secret: string, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url');
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

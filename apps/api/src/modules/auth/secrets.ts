import { randomBytes, randomInt } from 'node:crypto';
import { OTP } from '@kumo/contract';

/** A fresh OTP from the CSPRNG, zero-padded to the OTP length. */
export function generateOtp(): string {
  return String(randomInt(0, 10 ** OTP.length)).padStart(OTP.length, '0');
}

/** Random opaque refresh token: 256 bits, URL-safe. */
export function generateRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

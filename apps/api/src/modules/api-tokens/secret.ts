import { randomBytes } from 'node:crypto';
import { API_TOKEN_LIMITS } from '@kumo/contract';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Characters that hold `secretBytes` random bytes in base62: ceil(256 / log2(62)) = 43 for 32 bytes. */
const ENCODED_LENGTH = Math.ceil((API_TOKEN_LIMITS.secretBytes * 8) / Math.log2(62));

/** Bytes in base62, left-padded to a fixed length so every secret looks alike. */
export function base62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let text = '';
  while (value > 0n) {
    text = BASE62[Number(value % 62n)]! + text;
    value /= 62n;
  }
  return text.padStart(ENCODED_LENGTH, '0');
}

/** A new token secret: the recognisable prefix and 32 bytes from the CSPRNG. */
export function generateApiTokenSecret(): string {
  return API_TOKEN_LIMITS.secretPrefix + base62(randomBytes(API_TOKEN_LIMITS.secretBytes));
}

export const isApiTokenSecret = (bearer: string) => bearer.startsWith(API_TOKEN_LIMITS.secretPrefix);

import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keyed hash under a derived key, separated by purpose: OTPs, refresh, invitation and API tokens and XSRF tokens
 * are stored or compared only in this form.
 */
export function keyedHash(key: string, purpose: string, value: string): string {
  return createHmac('sha256', key).update(`${purpose}:${value}`).digest('base64url');
}

/** Compares two hashes in constant time. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Hashes of stored tokens: the current key's, and the ones a row may still have from before (to look it up). */
export interface TokenHasher {
  hash(purpose: string, value: string): string;
  /** The current hash first, then the one under the key before, for rows written before the key changed. */
  candidates(purpose: string, value: string): string[];
}

export function createTokenHasher(key: string, previousKey?: string): TokenHasher {
  const hash = (purpose: string, value: string) => keyedHash(key, purpose, value);
  return {
    hash,
    candidates: (purpose, value) => [hash(purpose, value), ...(previousKey ? [keyedHash(previousKey, purpose, value)] : [])],
  };
}

/** Values kept sealed at rest (AES-256-GCM): `k1.` and base64url of nonce, tag and ciphertext. */
export interface Sealer {
  seal(text: string): string;
  open(sealed: string): string;
  isSealed(value: string): boolean;
}

const SEALED = 'k1.';

function aesOpen(key: Buffer, raw: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** `previousKey`: values sealed before keys were derived have no prefix and are opened with it. */
export function createSealer(key: Buffer, previousKey?: Buffer): Sealer {
  return {
    seal(text) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return SEALED + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      if (sealed.startsWith(SEALED)) return aesOpen(key, Buffer.from(sealed.slice(SEALED.length), 'base64url'));
      if (!previousKey) throw new Error('not a sealed value');
      return aesOpen(previousKey, Buffer.from(sealed, 'base64url'));
    },
    isSealed: (value) => value.startsWith(SEALED),
  };
}

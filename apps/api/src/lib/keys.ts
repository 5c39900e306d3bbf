import { createHash, hkdfSync } from 'node:crypto';
import { createSealer, createTokenHasher, type Sealer, type TokenHasher } from './crypto.js';

/**
 * What each key derived from the master secret (AUTH_SECRET) is for. Each purpose has its own key, so one that
 * leaks (a log line, a compromised dependency) signs, unseals or matches nothing of the others, and none of them
 * gives the master back.
 */
export const KEY_PURPOSES = [
  'access-tokens',
  'token-hashes',
  'xsrf',
  'webhook-secrets',
  'cluster-passwords',
  'manager-tickets',
  'mail',
  'report-sessions',
  'four-eyes',
  'staff-sso',
  'dev-identity',
] as const;
export type KeyPurpose = (typeof KEY_PURPOSES)[number];

const SALT = 'kumo-cloud/server-keys/v1';

/** HKDF-SHA256 of the master for one purpose: 32 bytes. */
export function deriveKey(master: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(master, 'utf8'), SALT, purpose, 32));
}

/** The derived keys of one master, ready for the code that uses them (docs/decisions/0034-secrets-at-rest.md). */
export interface ServerKeys {
  /** The purpose's key as text, for code that takes a string key (HMACs, the JWT signer). */
  text(purpose: KeyPurpose): string;
  /** OTP, refresh, invitation and API token hashes; finds rows hashed under the master before keys were derived. */
  tokenHashes: TokenHasher;
  webhookSecrets: Sealer;
  clusterPasswords: Sealer;
  mail: Sealer;
}

export function deriveServerKeys(master: string): ServerKeys {
  // Before keys were derived, sealing keys were SHA-256 of a purpose and the master, and hashes used the master
  // itself: values written then are still read (never written) with those.
  const legacySealKey = (prefix: string) => createHash('sha256').update(`${prefix}:${master}`).digest();
  return {
    text: (purpose) => deriveKey(master, purpose).toString('base64url'),
    tokenHashes: createTokenHasher(deriveKey(master, 'token-hashes').toString('base64url'), master),
    webhookSecrets: createSealer(deriveKey(master, 'webhook-secrets'), legacySealKey('webhook-secret')),
    clusterPasswords: createSealer(deriveKey(master, 'cluster-passwords'), legacySealKey('cluster-password')),
    mail: createSealer(deriveKey(master, 'mail')),
  };
}

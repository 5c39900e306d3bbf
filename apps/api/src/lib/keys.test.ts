import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { keyedHash } from './crypto.js';
import { KEY_PURPOSES, deriveKey, deriveServerKeys } from './keys.js';

const MASTER = 'a-master-secret-of-at-least-32-characters';

/** How a value was sealed before keys were derived: AES-256-GCM under SHA-256 of a prefix and the master. */
function sealedTheOldWay(prefix: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(`${prefix}:${MASTER}`).digest(), iv);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

describe('keys derived from the master secret', () => {
  it('gives each purpose its own key, none of them the master, the same on every process', () => {
    const keys = KEY_PURPOSES.map((purpose) => deriveKey(MASTER, purpose).toString('hex'));
    expect(new Set(keys).size).toBe(KEY_PURPOSES.length);
    expect(keys.every((key) => key.length === 64)).toBe(true);
    const server = deriveServerKeys(MASTER);
    expect(KEY_PURPOSES.map((purpose) => server.text(purpose))).not.toContain(MASTER);
    expect(deriveServerKeys(MASTER).text('access-tokens')).toBe(server.text('access-tokens'));
    expect(deriveServerKeys(`${MASTER}!`).text('access-tokens')).not.toBe(server.text('access-tokens'));
  });

  it('seals under the purpose key: another purpose, or another master, cannot open it', () => {
    const keys = deriveServerKeys(MASTER);
    const sealed = keys.webhookSecrets.seal('whsec_abc');
    expect(sealed).toMatch(/^k1\./);
    expect(sealed).not.toContain('whsec_abc');
    expect(keys.webhookSecrets.open(sealed)).toBe('whsec_abc');
    expect(() => keys.clusterPasswords.open(sealed)).toThrow();
    expect(() => keys.mail.open(sealed)).toThrow();
    expect(() => deriveServerKeys(`${MASTER}!`).webhookSecrets.open(sealed)).toThrow();
  });

  it('still opens webhook secrets and cluster passwords sealed before keys were derived', () => {
    const keys = deriveServerKeys(MASTER);
    expect(keys.webhookSecrets.open(sealedTheOldWay('webhook-secret', 'whsec_old'))).toBe('whsec_old');
    expect(keys.clusterPasswords.open(sealedTheOldWay('cluster-password', 'Pa55word!'))).toBe('Pa55word!');
    expect(() => keys.webhookSecrets.open(sealedTheOldWay('cluster-password', 'x'))).toThrow();
  });

  it('hashes tokens under the token-hashes key, and finds the hash made under the master before', () => {
    const { tokenHashes } = deriveServerKeys(MASTER);
    const old = keyedHash(MASTER, 'refresh', 'token');
    expect(tokenHashes.hash('refresh', 'token')).not.toBe(old);
    expect(tokenHashes.candidates('refresh', 'token')).toEqual([tokenHashes.hash('refresh', 'token'), old]);
  });
});

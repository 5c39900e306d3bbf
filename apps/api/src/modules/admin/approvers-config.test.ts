import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { canonicalJson } from './four-eyes.service.js';

describe('APPROVER_EMAILS', () => {
  it('is a trimmed, lower-cased list; absent or empty means every other SYSTEM_ADMIN', () => {
    expect(loadConfig({ APPROVER_EMAILS: ' Ann@Kumo.cloud, bob@kumo.cloud ,' }).APPROVER_EMAILS).toEqual([
      'ann@kumo.cloud',
      'bob@kumo.cloud',
    ]);
    expect(loadConfig({}).APPROVER_EMAILS).toBeUndefined();
    expect(loadConfig({ APPROVER_EMAILS: '' }).APPROVER_EMAILS ?? []).toEqual([]);
  });
});

describe('the frozen payload', () => {
  it('reads the same whatever the key order, and differently for any change', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: 'x' } })).toBe(canonicalJson({ a: { c: 'x', d: [1, 2] }, b: 1 }));
    expect(canonicalJson({ amount: 250 })).not.toBe(canonicalJson({ amount: 2500 }));
  });
});

import { describe, expect, it } from 'vitest';
import { addressInRange, normalizeIpAddress, normalizeIpRange } from './ip-ranges.js';
import { networkAccessSchema } from './cluster-network.js';

describe('IP ranges', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7/32'],
    [' 203.0.113.7/24 ', '203.0.113.0/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1/128'],
    ['2001:db8:0:0:1::/48', '2001:db8::/48'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1/128'],
    ['::', '::/128'],
    ['::/0', '::/0'],
    ['::ffff:203.0.113.7', '203.0.113.7/32'],
    ['::ffff:203.0.113.0/120', '203.0.113.0/24'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221/128'],
  ])('writes %s as %s', (given, canonical) => {
    expect(normalizeIpRange(given)).toBe(canonical);
  });

  it.each([
    '',
    '203.0.113',
    '203.0.113.256',
    '203.0.113.7/33',
    '203.0.113.7/',
    '10.0.0.0/8/8',
    '2001:db8::1::2',
    '2001:db8::/129',
    '1.2.3.4::',
    'example.com',
    '01.2.3.4',
  ])('refuses %j', (given) => {
    expect(normalizeIpRange(given)).toBeNull();
  });

  it('finds an address in a range, an IPv4 address written as IPv6 included, and never across families', () => {
    expect(addressInRange('203.0.113.7', '203.0.113.0/24')).toBe(true);
    expect(addressInRange('::ffff:203.0.113.7', '203.0.113.0/24')).toBe(true);
    expect(addressInRange('203.0.114.7', '203.0.113.0/24')).toBe(false);
    expect(addressInRange('2001:db8::7', '2001:db8::/32')).toBe(true);
    expect(addressInRange('2001:db9::7', '2001:db8::/32')).toBe(false);
    expect(addressInRange('203.0.113.7', '::/0')).toBe(false);
    expect(addressInRange('anything', '0.0.0.0/0')).toBe(false);
    expect(normalizeIpAddress('::FFFF:203.0.113.7')).toBe('203.0.113.7');
  });

  it('checks a cluster access list: normalised, no duplicates, not empty unless open to anywhere', () => {
    expect(networkAccessSchema.parse({ allow_anywhere: false, allowed: [{ cidr: '203.0.113.7' }] })).toEqual({
      allow_anywhere: false,
      allowed: [{ cidr: '203.0.113.7/32', description: '' }],
    });
    const duplicate = networkAccessSchema.safeParse({
      allow_anywhere: false,
      allowed: [{ cidr: '203.0.113.7' }, { cidr: '203.0.113.7/32' }],
    });
    expect(duplicate.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['allowed.1.cidr']);
    expect(networkAccessSchema.safeParse({ allow_anywhere: false, allowed: [] }).success).toBe(false);
    expect(networkAccessSchema.safeParse({ allow_anywhere: true, allowed: [] }).success).toBe(true);
  });
});

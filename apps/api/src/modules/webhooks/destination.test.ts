import { describe, expect, it } from 'vitest';
import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES } from '@kumo/contract';
import { AppError } from '../../errors.js';
import { retryDelaySeconds } from './deliveries.js';
import { destinationProblem, isPrivateAddress } from './destination.js';

describe('webhook destinations', () => {
  it('refuses loopback, private, link-local, unspecified and mapped addresses, IPv4 and IPv6', () => {
    const refused = [
      '127.0.0.1',
      '127.255.0.9',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fc00::1',
      'fdff::1',
      'fe80::1',
      'febf::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      // Reserved IPv4 ranges: IETF protocol assignments and benchmarking.
      '192.0.0.1',
      '192.0.0.170',
      '198.18.0.1',
      '198.19.255.255',
      // NAT64 carrying a private address, in either notation, and the local-use NAT64 prefix whatever it carries.
      '64:ff9b::7f00:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::808:808',
      '64:ff9b:1:abcd::1',
      // IPv4-compatible (deprecated), whatever it carries.
      '::127.0.0.1',
      '::a00:1',
      '::8.8.8.8',
      // 6to4 carrying a private address.
      '2002:7f00:1::1',
      '2002:a00:1::',
      '2002:c0a8:101::5',
      // Site-local (deprecated).
      'fec0::1',
      'feff::1',
      // IPv4-translated, whatever it carries, in either notation.
      '::ffff:0:7f00:1',
      '::ffff:0:127.0.0.1',
      '::ffff:0:808:808',
      // Teredo, whatever it tunnels to.
      '2001::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      'not an address',
    ];
    for (const address of refused) expect([address, isPrivateAddress(address)]).toEqual([address, true]);
  });

  it('lets public addresses through, right next to the private ranges', () => {
    const allowed = [
      '8.8.8.8',
      '172.15.255.255',
      '172.32.0.1',
      '192.169.0.1',
      '169.255.0.1',
      '11.0.0.1',
      '2001:db8::1',
      '2606:4700::1',
      '::ffff:8.8.8.8',
      '192.0.1.1',
      '198.17.255.255',
      '198.20.0.1',
      '64:ff9b::808:808',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
      'ff:ff9b::7f00:1',
    ];
    for (const address of allowed) expect([address, isPrivateAddress(address)]).toEqual([address, false]);
  });

  it('answers 400 for a host name that does not exist and 503 for a lookup that failed for the moment', async () => {
    const failing = (code: string) => () => Promise.reject(Object.assign(new Error(code), { code }));
    expect(await destinationProblem('https://nowhere.example/hook', false, failing('ENOTFOUND'))).toBe(WEBHOOK_MESSAGES.urlUnresolvable);
    for (const code of ['EAI_AGAIN', 'ESERVFAIL', 'ETIMEOUT']) {
      const unavailable = destinationProblem('https://hooks.example/hook', false, failing(code));
      await expect(unavailable, code).rejects.toBeInstanceOf(AppError);
      await expect(unavailable, code).rejects.toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    }
    const publicOnly = () => Promise.resolve([{ address: '93.184.216.34', family: 4 }]);
    expect(await destinationProblem('https://hooks.example/hook', false, publicOnly)).toBeUndefined();
  });

  it('waits twice as long after each failed attempt, up to the cap', () => {
    const delays = Array.from({ length: 10 }, (_, index) => retryDelaySeconds(index + 1));
    expect(delays.slice(0, 4)).toEqual([30, 60, 120, 240]);
    expect(Math.max(...delays)).toBe(WEBHOOK_LIMITS.maxRetryDelaySeconds);
    expect(delays.at(-1)).toBe(WEBHOOK_LIMITS.maxRetryDelaySeconds);
  });
});

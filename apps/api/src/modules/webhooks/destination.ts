/**
 * Where an endpoint may point: https only, and never at a loopback, private or link-local address (the portal's own
 * network, the cloud's metadata service) unless WEBHOOK_ALLOW_PRIVATE says so. Checked when the endpoint is saved and
 * again on every delivery by the socket's own address lookup, so a name that later resolves elsewhere (DNS rebinding)
 * is refused before a byte is sent.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { WEBHOOK_MESSAGES } from '@kumo/contract';

const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 one, written either way (::ffff:127.0.0.1 or ::ffff:7f00:1). */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether an address is loopback, private, link-local, unspecified or multicast (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const mapped = mappedIpv4(address);
  if (mapped) return refused.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class DestinationRefused extends Error {}

/** The URL's problem for an endpoint, or undefined when it may be used: scheme first, then every address it resolves to. */
export async function destinationProblem(url: string, allowPrivate: boolean): Promise<string | undefined> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:')) return WEBHOOK_MESSAGES.urlNotHttps;
  if (parsed.username || parsed.password) return WEBHOOK_MESSAGES.urlInvalid;
  if (allowPrivate) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookupAll(host);
  } catch {
    return WEBHOOK_MESSAGES.urlUnresolvable;
  }
  return addresses.some((entry) => isPrivateAddress(entry.address)) ? WEBHOOK_MESSAGES.urlPrivate : undefined;
}

function lookupAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

/** The socket's address lookup for a delivery: the address it is about to connect to is checked, not an earlier answer. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, list) => {
      if (error) return callback(error, '', 0);
      const blocked = !allowPrivate && list.some((entry) => isPrivateAddress(entry.address));
      if (blocked) return callback(new DestinationRefused(WEBHOOK_MESSAGES.urlPrivate), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

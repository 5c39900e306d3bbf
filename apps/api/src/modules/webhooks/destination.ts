/**
 * Where an endpoint may point: https only, and never at a loopback, private or link-local address (the portal's own
 * network, the cloud's metadata service) unless WEBHOOK_ALLOW_PRIVATE says so. Checked when the endpoint is saved and
 * again on every delivery by the socket's own address lookup, so a name that later resolves elsewhere (DNS rebinding)
 * is refused before a byte is sent.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { MESSAGES, WEBHOOK_MESSAGES } from '@kumo/contract';
import { AppError } from '../../errors.js';

const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  // IETF protocol assignments (DS-Lite, NAT64 discovery) and the benchmarking range: never a public endpoint.
  ['192.0.0.0', 24],
  ['198.18.0.0', 15],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // IPv4-compatible addresses (::/96, deprecated; :: and ::1 are in it) and the local-use NAT64 prefix: never public.
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  // Deprecated site-local addresses, still routed inside some networks.
  ['fec0::', 10],
  // IPv4-translated (SIIT, ::ffff:0:a.b.c.d) and Teredo, which tunnels to an IPv4 address hidden in its bits: a
  // translator or relay would carry the request on to an address this check never sees.
  ['::ffff:0:0:0', 96],
  ['2001::', 32],
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
  return ipv4Of(parseInt(hex[1]!, 16), parseInt(hex[2]!, 16));
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail counts as two), or undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted
    ? address.slice(0, dotted.index) +
      [(+dotted[1]! << 8) | +dotted[2]!, (+dotted[3]! << 8) | +dotted[4]!].map((g) => g.toString(16)).join(':')
    : address;
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [first, last] = [parse(head), parse(tail)];
  return tail === undefined ? first : [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/**
 * The IPv4 address an IPv6 one carries for a gateway to forward to: NAT64's well-known 64:ff9b::/96 (its last two
 * groups) and 6to4's 2002::/16 (its second and third groups).
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return undefined;
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((group) => group === 0)) return ipv4Of(g[6]!, g[7]!);
  if (g[0] === 0x2002) return ipv4Of(g[1]!, g[2]!);
  return undefined;
}

/**
 * Whether an address is loopback, private, link-local, unspecified or multicast, also when an IPv6 address carries
 * such an IPv4 one (mapped, NAT64, 6to4), and any IPv4-translated or Teredo address.
 */
export function isPrivateAddress(address: string): boolean {
  const mapped = mappedIpv4(address);
  if (mapped) return refused.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return refused.check(address, 'ipv4');
  if (refused.check(address, 'ipv6')) return true;
  const embedded = embeddedIpv4(address);
  // A gateway would carry the request on to the IPv4 inside: refused like that address.
  return embedded !== undefined && refused.check(embedded, 'ipv4');
}

export class DestinationRefused extends Error {}

/**
 * The URL's problem for an endpoint, or undefined when it may be used: scheme first, then every address it resolves
 * to. A lookup that fails for another reason than an unknown name (EAI_AGAIN) is a 503 with Retry-After.
 */
export async function destinationProblem(
  url: string,
  allowPrivate: boolean,
  lookup: (host: string) => Promise<LookupAddress[]> = lookupAll,
): Promise<string | undefined> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !(allowPrivate && parsed.protocol === 'http:')) return WEBHOOK_MESSAGES.urlNotHttps;
  if (parsed.username || parsed.password) return WEBHOOK_MESSAGES.urlInvalid;
  if (allowPrivate) return undefined;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host);
  } catch (error) {
    // Only a name that does not exist is the URL's fault; a resolver that failed this time is ours, to try again.
    if ((error as NodeJS.ErrnoException).code === 'ENOTFOUND') return WEBHOOK_MESSAGES.urlUnresolvable;
    throw new AppError(503, 'SERVICE_UNAVAILABLE', MESSAGES.serviceUnavailable);
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
